package io.servesim.cli;

import java.util.List;
import java.util.Optional;

/** Which experiments of the sim-to-real study {@code validate-latency --study} simulates. */
public enum StudySet {
    /** Every experiment of the shipped trainval set. */
    full,
    /** Two of its short 7B runs at TP 1, Qwen2.5-7B roleplay and Llama-2-7B codegen: a quick check of the table. */
    quick,
    /** No study table. */
    none;

    /** The experiments' names (an empty list for every one), or empty for no table. */
    Optional<List<String>> experiments() {
        return switch (this) {
            case full -> Optional.of(List.of());
            case quick -> Optional.of(List.of("64-qwen2-5-7b-instruct-tp1-roleplay-1-1", "20260217-155451-llama-2-7b-tp1-codegen"));
            case none -> Optional.empty();
        };
    }
}

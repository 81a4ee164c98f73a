package io.servesim.engine;

/** Why an instance refused a request as unservable (BLIS enqueue guards; vLLM input validation). */
public enum DropReason {
    /** Prompt alone reaches {@code max_model_len}, or prompt + output budget exceeds it. */
    EXCEEDS_MAX_MODEL_LEN,
    /** The prompt (+ output budget) needs more KV blocks than the whole cache holds. */
    EXCEEDS_KV_CAPACITY,
    /** Preempted while alone in the batch: it can never fit, so it is dropped rather than retried forever. */
    NEVER_FITS
}

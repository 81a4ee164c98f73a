package io.servesim.engine;

import io.servesim.latency.StepShape;

/**
 * Forms one engine step: chooses which requests run and how many tokens each computes, admitting and preempting as its
 * engine core does, and appends their work to the step's shape. The vLLM core's is {@link BatchFormer}, the SGLang
 * core's {@link SglangScheduler}; the engine runs either the same way ({@link StepExecution}).
 */
interface StepFormer {
    void form(long nowUs, StepShape shape);
}

package io.servesim.latency;

/**
 * A latency model with the multimodal encoder priced: a step that encodes image, audio or video items takes the
 * encoder's time ({@link EncoderCost}) before the decoder's, as vLLM's model runner runs the step's scheduled encoder
 * inputs first and then the forward pass that consumes their outputs ({@code execute_model} ->
 * {@code _execute_mm_encoder} in {@code vllm/v1/worker/gpu_model_runner.py} at
 * vllm-project/vllm@00024d314514900f361ad072af6931e403b7f589). Whatever the wrapped model, the encoder's part is the
 * same, so this works over every latency model.
 */
public final class EncoderLatency implements LatencyModel {
    private final LatencyModel decoder;
    private final EncoderCost encoder;

    public EncoderLatency(LatencyModel decoder, EncoderCost encoder) {
        this.decoder = decoder;
        this.encoder = encoder;
    }

    @Override
    public String name() {
        return decoder.name();
    }

    @Override
    public String describe() {
        return decoder.describe() + "; multimodal encoder: " + encoder.describe();
    }

    @Override
    public String calibrationNote() {
        return decoder.calibrationNote();
    }

    @Override
    public long stepTimeUs(StepShape step) {
        long tokens = step.encoderTokens();
        long decoderUs = decoder.stepTimeUs(step);
        return tokens == 0 ? decoderUs : decoderUs + Math.round(encoder.us(step.encoderItems(), tokens));
    }

    @Override
    public double forwardPassUs(StepShape step) {
        return decoder.forwardPassUs(step);
    }

    @Override
    public double decoderLayerPassUs(StepShape step, int layers) {
        return decoder.decoderLayerPassUs(step, layers);
    }

    @Override
    public long queueingDelayUs(int inputTokens) {
        return decoder.queueingDelayUs(inputTokens);
    }

    @Override
    public long outputTokenProcessingUs() {
        return decoder.outputTokenProcessingUs();
    }
}

package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What {@code servesim validate} prints about a valid config: the deployment as it will run. */
class ValidateCommandTest {
    /** stdout, then stderr, of a validate that succeeds. */
    private static String validate(String... args) {
        CliRun.Result r = CliRun.exec(args);
        assertEquals(0, r.code(), r.err());
        return r.out() + r.err();
    }

    @Test
    void aPlanFileIsValidatedAsAPlanWithTheCandidatesVllmWouldRefuse() {
        // llama70b-multigpu: 3 GPUs x TP 2, 4, 8 x 1-8 replicas = 72 candidates, each of which runs
        String out = validate("validate", "../sweeps/plan/llama70b-multigpu.yaml");
        assertTrue(out.startsWith("OK ../sweeps/plan/llama70b-multigpu.yaml: plan llama70b-multigpu, 72 candidates\n"), out);
        assertEquals(out, validate("validate", "-c", "../sweeps/plan/llama70b-multigpu.yaml"), "-c FILE is CONFIG");
        // expert parallelism at TP 2 is not modelled: those candidates are listed with why
        java.nio.file.Path tp2 = java.nio.file.Path.of("target", "validate-plan-tp2.yaml");
        try {
            java.nio.file.Files.writeString(tp2, java.nio.file.Files.readString(java.nio.file.Path.of(
                    "../sweeps/plan/qwen3-moe-ep.yaml")).replace("replicas: {min: 1, max: 8}", "tp: [1, 2]"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        String moe = validate("validate", tp2.toString());
        assertTrue(moe.contains(", 24 candidates, 6 of which cannot run and are left out:\n  H100-tp2-dp2ep-default: "
                + "deployment.ep: true with deployment.tp 2"), moe);
        assertFalse(out.contains("axes"), "not read as a sweep: " + out);
        CliRun.Result flag = CliRun.exec("validate", "../sweeps/plan/llama70b-multigpu.yaml", "--tp", "2");
        assertEquals(2, flag.code());
        assertTrue(flag.err().contains("--tp: does not apply to a plan file"), flag.err());
    }

    @Test
    void pdConfigShowsBothPoolsAndTheLinks() {
        String out = validate("validate", "../sweeps/configs/llama8b-h100-pd.yaml", "--set", "deployment.pd.decode.hardware=A100-80GB",
                "--set", "deployment.pd.decode.replicas=3");
        assertTrue(out.contains("architecture: pd, decider always, transfers 1.0 ms + bytes at 50.0 GB/s per link (per-pair)"), out);
        assertTrue(out.contains("prefill pool: 2 x blackbox meta-llama/llama-3.1-8b-instruct on H100 TP1"), out);
        assertTrue(out.contains("decode pool: 3 x blackbox meta-llama/llama-3.1-8b-instruct on A100-80GB TP1"), out);
        assertTrue(out.contains("instances: 5,"), out);
    }

    @Test
    void anExpertParallelDeploymentShowsItsLockstepStepAndLink() {
        String out = validate("validate", "../sweeps/configs/llama8b-h100-4x.yaml", "--model", "qwen/qwen3-30b-a3b-instruct-2507",
                "--hardware", "RTXPRO6000", "--latency-model", "roofline", "--num-instances", "1", "--dp", "2", "--ep");
        assertTrue(out.contains("  latency: expert parallel over 2 ranks in lockstep (roofline"), out);
        assertTrue(out.contains("dispatch by NCCL as measured between 2 of these GPUs over PCIe Gen5 x16"), out);
    }

    @Test
    void eachEngineShowsItsCoreAndCpuTier() {
        String one = validate("validate", "../sweeps/configs/llama8b-h100-4x.yaml", "--kv-cpu-blocks", "20000");
        assertTrue(one.contains("  engine: vllm core, CPU KV tier of 20000 blocks per instance"), one);
        String pools = validate("validate", "../sweeps/configs/llama8b-h100-pd.yaml",
                "--set", "deployment.pd.prefill.engine={kind: sglang, page_size: 16}");
        assertTrue(pools.contains("prefill pool: 2 x blackbox meta-llama/llama-3.1-8b-instruct on H100 TP1"), pools);
        int prefill = pools.indexOf("prefill pool:");
        int decode = pools.indexOf("decode pool:");
        int sglang = pools.indexOf("    engine: sglang core, no CPU KV tier", prefill);
        assertTrue(sglang > prefill && sglang < decode, pools);
        assertTrue(pools.indexOf("    engine: vllm core, no CPU KV tier", decode) > decode, pools);
    }

    @Test
    void autoscalePolicyIsListedOnlyWhenAutoscaling() {
        String fixed = validate("validate", "../sweeps/configs/llama8b-h100-4x.yaml");
        assertFalse(fixed.contains("autoscale"), fixed);
        assertTrue(fixed.contains("latency: blackbox"), fixed);
        String scaled = validate("validate", "../sweeps/configs/llama70b-h100-autoscaled.yaml");
        assertTrue(scaled.contains("autoscale threshold"), scaled);
        assertFalse(scaled.contains("warning"), scaled);
    }

    @Test
    void anAutoscaledFleetOnAGpuWithoutAPriceIsWarnedThatItsCostIsNull() {
        String out = validate("validate", "../sweeps/configs/llama70b-h100-autoscaled.yaml", "--hardware", "B200");
        assertTrue(out.contains("servesim validate: warning: autoscaling.gpu_price_per_hour: no sourced price for B200 (the"
                + " GPU table prices H100, H200, A100-80GB), so cost_usd is null"), out);
        String priced = validate("validate", "../sweeps/configs/llama70b-h100-autoscaled.yaml", "--hardware", "B200",
                "--set", "autoscaling.gpu_price_per_hour=6.5");
        assertFalse(priced.contains("warning"), priced);
    }
}

package io.servesim.plan;

/**
 * How many engine instances a candidate deployment runs: one pool of replicas, each serving whole requests, a
 * prefill pool feeding a decode pool ({@code deployment.architecture: pd}), or one data-parallel deployment of ranks
 * ({@code deployment.dp}, with expert parallelism over them for a MoE model: {@code deployment.ep}).
 */
public sealed interface Fleet {
    /** Instances of all pools. */
    int instances();

    /** {@code x4}, {@code pd2p3d}: the fleet's part of a candidate id. */
    String label();

    /**
     * Aggregated replicas, each prefilling and decoding its own requests ({@code deployment.instances}).
     *
     * @param replicas the replicas
     */
    record Aggregated(int replicas) implements Fleet {
        @Override
        public int instances() {
            return replicas;
        }

        @Override
        public String label() {
            return "x" + replicas;
        }
    }

    /**
     * Prefill/decode disaggregation ({@code deployment.pd.prefill.replicas}, {@code deployment.pd.decode.replicas}).
     *
     * @param prefill prefill replicas
     * @param decode  decode replicas
     */
    record Disaggregated(int prefill, int decode) implements Fleet {
        @Override
        public int instances() {
            return prefill + decode;
        }

        @Override
        public String label() {
            return "pd" + prefill + "p" + decode + "d";
        }
    }

    /**
     * One vLLM data-parallel deployment ({@code deployment.dp}): {@code ranks} engines of TP GPUs each, and with
     * {@code expertParallel} a MoE model's experts sharded over them, the ranks stepping in lockstep
     * ({@code deployment.ep}, vLLM's {@code --enable-expert-parallel}).
     *
     * @param ranks          data-parallel ranks (vLLM {@code --data-parallel-size})
     * @param expertParallel whether the experts are sharded over the ranks
     */
    record DataParallel(int ranks, boolean expertParallel) implements Fleet {
        @Override
        public int instances() {
            return ranks;
        }

        @Override
        public String label() {
            return "dp" + ranks + (expertParallel ? "ep" : "");
        }
    }
}

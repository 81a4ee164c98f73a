package io.servesim.run;

/**
 * The config keys a fleet's start-up problems name: an aggregated deployment's ({@code deployment},
 * {@code engine.*}, {@code deployment.instances}) or a P/D pool's ({@code deployment.pd.decode},
 * {@code deployment.pd.decode.engine.*}, {@code deployment.pd.decode.replicas}), so that every message
 * names the key to change where it is set.
 *
 * @param deployment the fleet's GPU section ({@code hardware}, {@code tp} live there)
 * @param engine     its engine section
 * @param replicas   the key sizing it
 */
record FleetKeys(String deployment, String engine, String replicas) {
    static final FleetKeys AGGREGATED = new FleetKeys("deployment", "engine", "deployment.instances");

    /** The keys of the P/D pool at {@code poolPath} ({@code deployment.pd.prefill}). */
    static FleetKeys pool(String poolPath) {
        return new FleetKeys(poolPath, poolPath + ".engine", poolPath + ".replicas");
    }

    /** {@code key} of the engine section: {@code engine.max_model_len}. */
    String engine(String key) {
        return engine + "." + key;
    }
}

package io.servesim.disagg;

import java.util.Arrays;
import java.util.List;

/**
 * Which KV transfers share a link's bandwidth ({@code deployment.pd.transfer.topology}).
 * {@code per-pair}: one link per (prefill instance, decode instance) pair, so only transfers between
 * the same two instances contend (a dedicated path, e.g. NVLink between the two, or a
 * non-blocking RDMA fabric whose NICs are rarely shared); {@code shared}: one fabric every transfer
 * crosses (an oversubscribed spine, or one NIC in front of the prefill pool).
 */
public enum Topology {
    PER_PAIR("per-pair"),
    SHARED("shared");

    private final String configName;

    Topology(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static List<String> names() {
        return Arrays.stream(values()).map(Topology::configName).toList();
    }

    public static Topology of(String configName) {
        for (Topology t : values()) {
            if (t.configName.equals(configName)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown topology " + configName);
    }
}

package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario given by {@code --set workload.scenario=X} on a config without a workload is the scenario written in a
 * file, not the default workload edited: the default's own keys (its Poisson arrival) are no key of some scenarios
 * (mixed-slo had failed with "workload.arrival: unknown key"), and change chat's arrivals.
 */
class ScenarioSetTest {
    @Test
    void aScenarioFromSetRunsAsTheSameScenarioFromAFile(@TempDir Path tmp) throws Exception {
        for (String scenario : new String[] {"mixed-slo", "chat"}) {
            Path file = Files.writeString(tmp.resolve(scenario + ".yaml"),
                    "workload: {scenario: " + scenario + ", num_requests: 40}\n");
            CliRun.Result fromFile = CliRun.exec("run", "-c", file.toString(), "--model", "meta-llama/llama-3.1-8b-instruct",
                    "--hardware", "H100");
            CliRun.Result fromSet = CliRun.exec("run", "--model", "meta-llama/llama-3.1-8b-instruct", "--hardware", "H100",
                    "--set", "workload.scenario=" + scenario, "--num-requests", "40");
            assertEquals(0, fromFile.code(), fromFile.err());
            assertEquals(0, fromSet.code(), fromSet.err());
            assertFalse(fromSet.err().contains("default workload"), fromSet.err());
            for (String metric : new String[] {"events_processed", "duration_s", "completed"}) {
                assertEquals(fromFile.json().get(metric), fromSet.json().get(metric), scenario + " " + metric);
            }
        }
    }
}

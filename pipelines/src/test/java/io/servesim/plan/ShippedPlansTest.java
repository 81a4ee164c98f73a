package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every plan the repository ships ({@code sweeps/plan/}) binds, and its candidates are configs a run binds and
 * prepares (the plan runs; what vLLM would refuse to start is left out with its reason, never the whole plan).
 */
class ShippedPlansTest {
    private static final Path PLANS = Path.of("..", "sweeps", "plan").toAbsolutePath().normalize();

    static List<Path> plans() throws IOException {
        try (Stream<Path> files = Files.list(PLANS)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @ParameterizedTest
    @MethodSource("plans")
    void bindsAndItsCandidatesRun(Path file) throws Exception {
        PlanSpec plan = PlanFile.load(file);
        assertEquals(file.getFileName().toString(), plan.name() + ".yaml", "a plan's name is its file's");
        var invalid = CandidateCheck.invalid(plan);
        assertTrue(invalid.size() < plan.candidates().size(), "some candidate runs: " + invalid);
    }
}

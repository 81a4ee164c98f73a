package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.StrictJson;
import io.servesim.metrics.RequestRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run cut at its horizon reports what was seen by then. A step's tokens are sampled when the step is priced, so the
 * steps in flight at the horizon hold first tokens that would come after it: an unfinished request whose first token
 * is past the horizon has none (and no output token), whichever side sees it.
 */
class HorizonRecordsTest {
    /** 40 req/s of 1,000-token prompts overloads one H100 (a prefill step of 8,192 tokens takes tens of ms). */
    private static final String CONFIG = """
            seed: 3
            horizon_us: 2000000
            deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}
            workload:
              aggregate_rate: 40
              num_requests: 400
              input_distribution: {type: uniform, params: {min: 800, max: 1200}}
              output_distribution: {type: uniform, params: {min: 50, max: 100}}
            """;

    @Test
    void noUnfinishedRequestShowsATokenAfterTheHorizon() throws Exception {
        long horizonUs = 2_000_000;
        var cfg = SimConfigLoader.bind(StrictJson.yaml().readTree(CONFIG), Path.of("."));
        List<RequestRecord> records = new ArrayList<>();
        RunPlan.prepare(cfg).run(records::add);
        List<RequestRecord> unfinished = records.stream().filter(r -> r.status().equals(RequestRecord.UNFINISHED)).toList();
        assertTrue(unfinished.size() > 10, "the horizon cuts the run: " + unfinished.size() + " unfinished");
        long withFirstToken = 0;
        for (RequestRecord r : unfinished) {
            assertTrue(r.firstTokenUs() <= horizonUs, "first token after the horizon: " + r);
            assertTrue(r.firstTokenUs() < 0 || r.sendUs() + r.clientTtftUs() <= horizonUs || r.clientTtftUs() < 0,
                    "client's first token after the horizon: " + r);
            if (r.firstTokenUs() < 0) {
                assertEquals(-1, r.ttftUs(), r.toString());
                assertEquals(0, r.outputTokens(), "no token seen, none counted: " + r);
            } else {
                withFirstToken++;
            }
        }
        assertTrue(withFirstToken > 0, "some unfinished requests had streamed tokens by the horizon");
    }
}

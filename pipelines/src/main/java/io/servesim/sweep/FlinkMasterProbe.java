package io.servesim.sweep;

import io.servesim.exit.UsageException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Asks a remote Flink master's REST API for its configuration ({@code GET /config}, which every Flink 1.x JobManager
 * serves) before a sweep is submitted, so an address where no cluster answers fails within seconds, naming the address
 * and the cause, instead of the runner waiting on it without a word.
 */
final class FlinkMasterProbe {
    private static final Duration CONNECT = Duration.ofSeconds(5);
    private static final Duration ANSWER = Duration.ofSeconds(10);

    private FlinkMasterProbe() {
    }

    /** Throws a {@link UsageException} naming {@code --flink-master} unless a Flink REST API answers at {@code master}. */
    static void check(String master) {
        String why;
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT).build();
            HttpResponse<Void> r = client.send(HttpRequest.newBuilder(URI.create("http://" + master + "/config"))
                    .timeout(ANSWER).GET().build(), HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() == 200) {
                return;
            }
            why = "it answered HTTP " + r.statusCode() + " to GET /config, which a Flink REST API serves";
        } catch (HttpConnectTimeoutException e) {
            why = "no answer to a connection within " + CONNECT.toSeconds() + " s";
        } catch (HttpTimeoutException e) {
            why = "connected, but no answer within " + ANSWER.toSeconds() + " s";
        } catch (ConnectException e) {
            why = "connection refused";
        } catch (IOException | IllegalArgumentException e) {
            why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted";
        }
        throw new UsageException("--flink-master " + master + ": no Flink cluster answers there (" + why + "); start one"
                + " (scripts/flink-cluster start) or check the address");
    }
}

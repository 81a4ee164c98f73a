package io.servesim.config;

import java.util.List;

/**
 * Invalid configuration. Every problem names the exact path in the config
 * ({@code clients[2].arrival.cv}) and, where the value is one of a closed set, the valid choices.
 * Several problems may be reported at once.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** One problem at one config path. */
    public record Problem(String path, String message) {
        @Override
        public String toString() {
            return (path == null || path.isEmpty() ? "<root>" : path) + ": " + message;
        }
    }

    private final transient List<Problem> problems;

    public ConfigException(List<Problem> problems) {
        super(render(problems));
        this.problems = List.copyOf(problems);
    }

    public ConfigException(String path, String message) {
        this(List.of(new Problem(path, message)));
    }

    public List<Problem> problems() {
        return problems;
    }

    private static String render(List<Problem> problems) {
        if (problems.size() == 1) {
            return problems.get(0).toString();
        }
        StringBuilder sb = new StringBuilder(problems.size() + " config problems:");
        for (Problem p : problems) {
            sb.append("\n  ").append(p);
        }
        return sb.toString();
    }
}

package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.engine.Request;
import io.servesim.testing.RepoFiles;
import io.servesim.workload.dist.DistributionSpec;
import io.servesim.workload.dist.SpecialFunctions;
import io.servesim.workload.trace.ReplayMode;
import io.servesim.workload.trace.TraceFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chat and code presets against the Azure LLM inference trace 2023. {@link #presetsAreTheMaximumLikelihoodFits}
 * refits every row of the full traces (shipped in {@code sweeps/data/traces/azure2023}) and
 * checks the presets' parameters, family choices and rates; {@link #presetMeansMatchTheTraceSlices}
 * checks the presets' means against the bundled every-20th-row slices.
 */
class AzureFitTest {
    private static final Path FULL = RepoFiles.data("traces/azure2023");

    private static List<Request> read(Path csv) {
        return Drain.all(new TraceSpec(TraceFormat.AZURE, csv, ReplayMode.TRACE, 1, 0, false, 0).open(0, 0));
    }

    private static double[] column(List<Request> rs, ToDoubleFunction<Request> f) {
        return rs.stream().mapToDouble(f).toArray();
    }

    private static JsonNode preset(String scenario) {
        return Yaml.tree(Scenarios.yaml(scenario));
    }

    @ParameterizedTest
    @ValueSource(strings = {"chat", "code"})
    void presetsAreTheMaximumLikelihoodFits(String scenario) {
        Path csv = FULL.resolve("AzureLLMInferenceTrace_" + (scenario.equals("chat") ? "conv" : "code") + ".csv");
        List<Request> rs = read(csv);
        JsonNode p = preset(scenario);

        // Input: gamma beats lognormal; shape and scale are the gamma MLE (4 significant digits as published).
        double[] in = column(rs, Request::inputTokens);
        double[] gamma = Mle.gamma(in);
        JsonNode ip = p.at("/input_distribution/params");
        assertEquals(ip.get("shape").asDouble(), gamma[0], 5e-5);
        assertEquals(ip.get("scale").asDouble(), gamma[1], 5e-3);
        assertTrue(Mle.gammaLogLikelihood(in, gamma) > Mle.lognormalLogLikelihood(in, Mle.lognormal(in)));
        assertEquals(ip.get("min").asDouble(), Mle.min(in));
        assertEquals(ip.get("max").asDouble(), Mle.max(in));

        // Output: lognormal beats gamma; mu and sigma are the mean and sd of ln x.
        double[] out = column(rs, Request::outputTokens);
        double[] logn = Mle.lognormal(out);
        JsonNode op = p.at("/output_distribution/params");
        assertEquals(op.get("mu").asDouble(), logn[0], 5e-5);
        assertEquals(op.get("sigma").asDouble(), logn[1], 5e-5);
        assertTrue(Mle.lognormalLogLikelihood(out, logn) > Mle.gammaLogLikelihood(out, Mle.gamma(out)));

        // Gaps (microseconds, the few that round to 0 dropped): chat gamma, code Weibull, by log-likelihood.
        double[] gaps = java.util.stream.IntStream.range(1, rs.size())
                .mapToDouble(i -> rs.get(i).arrivalUs() - rs.get(i - 1).arrivalUs()).filter(g -> g > 0).toArray();
        double[] g = Mle.gamma(gaps);
        double[] w = Mle.weibull(gaps);
        double gammaLl = Mle.gammaLogLikelihood(gaps, g);
        double weibullLl = Mle.weibullLogLikelihood(gaps, w);
        double cv = p.at("/arrival/cv").asDouble();
        if (scenario.equals("chat")) {
            assertEquals("gamma", p.at("/arrival/process").asText());
            assertEquals(cv, 1 / Math.sqrt(g[0]), 5e-4);
            assertTrue(gammaLl > weibullLl);
        } else {
            assertEquals("weibull", p.at("/arrival/process").asText());
            assertEquals(cv, SpecialFunctions.weibullCv(w[0]), 5e-3);
            assertTrue(weibullLl > gammaLl);
        }
        double rate = (rs.size() - 1) / ((rs.get(rs.size() - 1).arrivalUs() - rs.get(0).arrivalUs()) / 1e6);
        assertEquals(p.get("aggregate_rate").asDouble(), rate, 5e-3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"chat", "code"})
    void presetMeansMatchTheTraceSlices(String scenario) {
        // The slice's mean lies within 3 standard errors (sd / sqrt(n)) of the preset's clamped mean,
        // which is estimated from 200,000 draws.
        List<Request> rs = read(Path.of("src/test/resources/traces/azure_" + (scenario.equals("chat") ? "conv" : "code")
                + "_every20.csv"));
        ClientSpec c = ((GeneratorSpec) Yaml.workload("scenario: " + scenario)).clients().get(0);
        checkMean(column(rs, Request::inputTokens), c.input());
        checkMean(column(rs, Request::outputTokens), c.output());
    }

    private static void checkMean(double[] data, DistributionSpec preset) {
        SplittableRandom rng = new SplittableRandom(1);
        double sum = 0;
        for (int i = 0; i < 200_000; i++) {
            sum += preset.sample(rng);
        }
        double presetMean = sum / 200_000;
        double mean = java.util.Arrays.stream(data).average().orElseThrow();
        double sd = Math.sqrt(java.util.Arrays.stream(data).map(x -> (x - mean) * (x - mean)).sum() / data.length);
        assertEquals(mean, presetMean, 3 * sd / Math.sqrt(data.length), preset.type());
    }

    /** Maximum-likelihood fits and log-likelihoods (continuous densities, as scipy.stats with loc = 0). */
    static final class Mle {
        private Mle() {
        }

        static double min(double[] x) {
            return java.util.Arrays.stream(x).min().orElseThrow();
        }

        static double max(double[] x) {
            return java.util.Arrays.stream(x).max().orElseThrow();
        }

        /** {mu, sigma}: mean and (population) standard deviation of ln x. */
        static double[] lognormal(double[] x) {
            double m = 0;
            for (double v : x) {
                m += Math.log(v);
            }
            m /= x.length;
            double s = 0;
            for (double v : x) {
                s += (Math.log(v) - m) * (Math.log(v) - m);
            }
            return new double[] {m, Math.sqrt(s / x.length)};
        }

        static double lognormalLogLikelihood(double[] x, double[] p) {
            double ll = 0;
            for (double v : x) {
                double z = (Math.log(v) - p[0]) / p[1];
                ll += -Math.log(v * p[1] * Math.sqrt(2 * Math.PI)) - z * z / 2;
            }
            return ll;
        }

        /** {shape, scale}: shape solves ln k - digamma(k) = ln mean(x) - mean(ln x) (bisection), scale = mean / k. */
        static double[] gamma(double[] x) {
            double mean = 0;
            double meanLog = 0;
            for (double v : x) {
                mean += v;
                meanLog += Math.log(v);
            }
            mean /= x.length;
            meanLog /= x.length;
            double c = Math.log(mean) - meanLog;
            double lo = 1e-3;
            double hi = 1e3;
            for (int i = 0; i < 200; i++) {
                double k = Math.sqrt(lo * hi);
                if (Math.log(k) - digamma(k) > c) {
                    lo = k;
                } else {
                    hi = k;
                }
            }
            double k = Math.sqrt(lo * hi);
            return new double[] {k, mean / k};
        }

        static double gammaLogLikelihood(double[] x, double[] p) {
            double ll = 0;
            for (double v : x) {
                ll += (p[0] - 1) * Math.log(v) - v / p[1] - p[0] * Math.log(p[1]) - SpecialFunctions.lnGamma(p[0]);
            }
            return ll;
        }

        /** {shape, scale}: shape solves sum x^k ln x / sum x^k - 1/k = mean(ln x) (bisection), scale = (mean x^k)^(1/k). */
        static double[] weibull(double[] x) {
            double meanLog = 0;
            for (double v : x) {
                meanLog += Math.log(v);
            }
            meanLog /= x.length;
            double lo = 0.05;
            double hi = 20;
            for (int i = 0; i < 200; i++) {
                double k = 0.5 * (lo + hi);
                double num = 0;
                double den = 0;
                for (double v : x) {
                    double xk = Math.pow(v, k);
                    num += xk * Math.log(v);
                    den += xk;
                }
                if (num / den - 1 / k - meanLog > 0) {
                    hi = k;
                } else {
                    lo = k;
                }
            }
            double k = 0.5 * (lo + hi);
            double s = 0;
            for (double v : x) {
                s += Math.pow(v, k);
            }
            return new double[] {k, Math.pow(s / x.length, 1 / k)};
        }

        static double weibullLogLikelihood(double[] x, double[] p) {
            double ll = 0;
            for (double v : x) {
                ll += Math.log(p[0] / p[1]) + (p[0] - 1) * Math.log(v / p[1]) - Math.pow(v / p[1], p[0]);
            }
            return ll;
        }

        /** Digamma by recurrence up to x >= 6, then the asymptotic series (error below 1e-12). */
        static double digamma(double x) {
            double r = 0;
            while (x < 6) {
                r -= 1 / x;
                x += 1;
            }
            double f = 1 / (x * x);
            return r + Math.log(x) - 0.5 / x
                    - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
        }
    }
}

package io.servesim.evolve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.servesim.io.LocalOutputFile;
import io.servesim.io.ParquetWriters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * The files a search writes beside its rounds: {@code generations/} (one row per candidate x generation: its searched
 * parameters as the runs saw them, one column each named {@code <kind>_<param>}, its training fitness and the mean of
 * each reported metric over its runs), {@code comparison/} (one row per policy x split: the best candidate and each
 * baseline on the training and held-out splits) and {@code best-policy.yaml} (the best candidate as a policy bundle,
 * usable as {@code --policy-config}). The Parquet schemas follow the searched parameters, so they are built per search
 * rather than read from {@code schemas/}.
 */
final class EvolveOutputs {
    static final String GENERATIONS = "generations";
    static final String COMPARISON = "comparison";
    static final String BEST_POLICY = "best-policy.yaml";
    static final String SUMMARY_TEXT = "summary.txt";
    static final String SUMMARY_JSON = "_SUMMARY.json";
    static final String REPORT = "report.html";
    private static final String PART = "part-0.parquet";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private EvolveOutputs() {
    }

    /** Writes the datasets and the best policy into {@code staging}; returns the files written, relative to it. */
    static List<String> write(Path staging, EvolveSpec spec, EvolveResult result, List<String> metrics) throws IOException {
        List<String> out = new ArrayList<>();
        out.add(generations(staging, spec, result, metrics));
        out.add(comparison(staging, result, metrics));
        Files.writeString(staging.resolve(BEST_POLICY), bestPolicy(spec, result), StandardCharsets.UTF_8);
        out.add(BEST_POLICY);
        return out;
    }

    /** {@code best-policy.yaml}: a comment saying where it came from, then the policy bundle. */
    static String bestPolicy(EvolveSpec spec, EvolveResult result) throws IOException {
        ObjectNode bundle = YAML.createObjectNode();
        EvolveRounds.filled(spec, result.best().x()).forEach(bundle::set);
        EvolveRounds.Score held = result.heldOut().get(EvolveRounds.BEST);
        return "# The best candidate of servesim evolve search " + spec.name() + ": " + result.best().label()
                + ", training fitness " + EvolveSummary.fitness(result.best().value())
                + (held == null ? "" : ", held-out fitness " + EvolveSummary.fitness(held.fitness()))
                + " (" + spec.fitnessText() + ").\n# A policy bundle: servesim run/sweep/evaluate --policy-config"
                + " best-policy.yaml\n" + YAML.writeValueAsString(bundle);
    }

    private static String generations(Path staging, EvolveSpec spec, EvolveResult result, List<String> metrics)
            throws IOException {
        SchemaBuilder.FieldAssembler<Schema> f = SchemaBuilder.record("generation_candidate").namespace("io.servesim")
                .fields().requiredInt("generation").requiredString("candidate").requiredInt("candidate_index");
        for (Param p : spec.params()) {
            SchemaBuilder.FieldTypeBuilder<Schema> type = f.name(p.column())
                    .doc(p.name() + " as the runs saw it" + (p.type() == Param.Type.SECONDS ? ", seconds" : "")).type();
            f = p.type() == Param.Type.INTEGER ? type.longType().noDefault() : type.doubleType().noDefault();
        }
        f = f.name("not_run_reason").doc("why the candidate did not run (its score then is none, or its twin's)")
                .type().optional().stringType()
                .name("fitness").doc("mean training fitness over its runs (a failed run scores 0); null if not run")
                .type().optional().doubleType()
                .requiredInt("runs").requiredInt("failed_runs").requiredBoolean("best");
        for (String m : metrics) {
            f = f.name(m).doc("mean over its finished training runs").type().optional().doubleType();
        }
        Schema schema = f.endRecord();
        String rel = GENERATIONS + "/" + PART;
        try (ParquetWriter<GenericRecord> w = open(staging.resolve(rel), schema)) {
            for (Evaluated e : result.all()) {
                GenericData.Record row = new GenericData.Record(schema);
                row.put("generation", e.generation());
                row.put("candidate", e.label());
                row.put("candidate_index", e.index());
                for (int i = 0; i < spec.params().size(); i++) {
                    Param p = spec.params().get(i);
                    double value = p.effective(e.x()[i]);
                    row.put(p.column(), p.type() == Param.Type.INTEGER ? (Object) (long) value : (Object) value);
                }
                row.put("not_run_reason", e.reason());
                row.put("best", e == result.best());
                score(row, e.score(), metrics);
                w.write(row);
            }
        }
        return rel;
    }

    private static String comparison(Path staging, EvolveResult result, List<String> metrics) throws IOException {
        SchemaBuilder.FieldAssembler<Schema> f = SchemaBuilder.record("evolve_comparison").namespace("io.servesim")
                .fields().requiredString("policy").requiredString("split")
                .name("fitness").type().optional().doubleType().requiredInt("runs").requiredInt("failed_runs");
        for (String m : metrics) {
            f = f.name(m).type().optional().doubleType();
        }
        Schema schema = f.endRecord();
        String rel = COMPARISON + "/" + PART;
        try (ParquetWriter<GenericRecord> w = open(staging.resolve(rel), schema)) {
            for (Map.Entry<String, Map<String, EvolveRounds.Score>> split : List.of(Map.entry("train", result.train()),
                    Map.entry("held_out", result.heldOut()))) {
                for (Map.Entry<String, EvolveRounds.Score> e : split.getValue().entrySet()) {
                    GenericData.Record row = new GenericData.Record(schema);
                    row.put("policy", e.getKey());
                    row.put("split", split.getKey());
                    score(row, e.getValue(), metrics);
                    w.write(row);
                }
            }
        }
        return rel;
    }

    private static void score(GenericData.Record row, EvolveRounds.Score s, List<String> metrics) {
        row.put("fitness", s == null ? null : s.fitness());
        row.put("runs", s == null ? 0 : s.runs());
        row.put("failed_runs", s == null ? 0 : s.failed());
        for (String m : metrics) {
            row.put(m, s == null ? null : s.metrics().get(m));
        }
    }

    private static ParquetWriter<GenericRecord> open(Path file, Schema schema) throws IOException {
        Files.createDirectories(file.getParent());
        return ParquetWriters.open(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.OVERWRITE);
    }
}

package org.agentmemory.brain.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A page's statements as the JSON its row stores: an array of
 * {@code {"text", "evidence": [...], "assertedAt", "supersededAt", "supersededBy": [...]}}, times as ISO-8601 UTC.
 */
public final class StatementsJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StatementsJson() {}

    /** The stored form of one statement. */
    record Stored(
            String text, List<String> evidence, String assertedAt, String supersededAt, List<String> supersededBy) {}

    /** @return the statements as JSON */
    public static String write(List<Statement> statements) {
        List<Stored> stored = new ArrayList<>();
        for (Statement s : statements) {
            stored.add(new Stored(
                    s.text(),
                    List.copyOf(s.evidence()),
                    s.assertedAt().toString(),
                    s.supersededAt() == null ? null : s.supersededAt().toString(),
                    List.copyOf(s.supersededBy())));
        }
        try {
            return JSON.writeValueAsString(stored);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("statements cannot be written as JSON", e);
        }
    }

    /** @return the statements of a row's JSON */
    public static List<Statement> read(String json) {
        try {
            List<Stored> stored = JSON.readValue(json, new TypeReference<List<Stored>>() {});
            List<Statement> statements = new ArrayList<>(stored.size());
            for (Stored s : stored) {
                statements.add(new Statement(
                        s.text(),
                        Set.copyOf(s.evidence() == null ? List.of() : s.evidence()),
                        Instant.parse(s.assertedAt()),
                        s.supersededAt() == null ? null : Instant.parse(s.supersededAt()),
                        Set.copyOf(s.supersededBy() == null ? List.of() : s.supersededBy())));
            }
            return statements;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a brain page's statements are not valid JSON", e);
        }
    }
}

package org.agentmemory.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the LoCoMo utterances ({@code turns-dev.jsonl}) into the service's JSONL import lines: each
 * session is a conversation (chatbot {@code locomo}, user = the conversation id, session
 * {@code session-<n>}); each utterance is paired with the next speaker's reply as one turn; the utterances'
 * {@code dia_id}s, speakers, session date and image caption go into the turn's metadata.
 */
public final class Locomo {

    /** e.g. {@code 1:56 pm on 8 May, 2023} */
    private static final DateTimeFormatter SESSION_DATE = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("h:mm a 'on' d MMMM, yyyy")
            .toFormatter(Locale.ENGLISH);

    private Locomo() {}

    /**
     * @return the LoCoMo turns file: {@code it.locomo.turns} (the workspace's {@code shared/data/locomo} next
     *         to the repository) or, for clones elsewhere on this machine, {@code /work/shared/data/locomo}
     * @throws IllegalStateException naming both places when neither exists
     */
    public static Path turnsFile() {
        Path configured = Path.of(System.getProperty("it.locomo.turns", "../../../shared/data/locomo/turns-dev.jsonl"));
        Path machine = Path.of("/work/shared/data/locomo/turns-dev.jsonl");
        if (Files.isReadable(configured)) {
            return configured;
        }
        if (Files.isReadable(machine)) {
            return machine;
        }
        throw new IllegalStateException("LoCoMo turns not found at " + configured.toAbsolutePath() + " nor " + machine
                + "; pass -Dit.locomo.turns=/path/to/turns-dev.jsonl");
    }

    /** @return the import lines, in file order, as JSON maps */
    public static List<Map<String, Object>> importLines(Path turnsFile) {
        List<JsonNode> utterances = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(turnsFile, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    utterances.add(Api.JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Map<String, Object>> lines = new ArrayList<>();
        int i = 0;
        while (i < utterances.size()) {
            JsonNode user = utterances.get(i);
            JsonNode reply = i + 1 < utterances.size()
                            && sameSession(user, utterances.get(i + 1))
                            && !user.get("speaker")
                                    .asText()
                                    .equals(utterances.get(i + 1).get("speaker").asText())
                    ? utterances.get(i + 1)
                    : null;
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("dia_id", user.get("dia_id").asText());
            metadata.put("speaker", user.get("speaker").asText());
            metadata.put("session_date_time", user.get("session_date_time").asText());
            caption(metadata, "image_caption", user);
            if (reply != null) {
                metadata.put("reply_dia_id", reply.get("dia_id").asText());
                metadata.put("reply_speaker", reply.get("speaker").asText());
                caption(metadata, "reply_image_caption", reply);
            }
            Map<String, Object> turn = new LinkedHashMap<>();
            turn.put(
                    "turnId",
                    user.get("conv_id").asText() + ":" + user.get("dia_id").asText());
            turn.put("userMessage", user.get("text").asText());
            turn.put("assistantResponse", reply == null ? "" : reply.get("text").asText());
            turn.put("timestamp", timestamp(user));
            turn.put("metadata", metadata);
            Map<String, Object> key = new LinkedHashMap<>();
            key.put("chatbotId", "locomo");
            key.put("userId", user.get("conv_id").asText());
            key.put("sessionId", "session-" + user.get("session_index").asInt());
            lines.add(Api.obj("key", key, "turn", turn));
            i += reply == null ? 1 : 2;
        }
        return lines;
    }

    private static boolean sameSession(JsonNode a, JsonNode b) {
        return a.get("conv_id").asText().equals(b.get("conv_id").asText())
                && a.get("session_index").asInt() == b.get("session_index").asInt();
    }

    private static void caption(Map<String, Object> metadata, String key, JsonNode utterance) {
        JsonNode caption = utterance.get("image_caption");
        if (caption != null && !caption.isNull()) {
            metadata.put(key, caption.asText());
        }
    }

    /** The session's date and time (taken as UTC) plus one second per utterance index. */
    private static String timestamp(JsonNode utterance) {
        LocalDateTime start =
                LocalDateTime.parse(utterance.get("session_date_time").asText(), SESSION_DATE);
        return start.plusSeconds(utterance.get("turn_index").asInt())
                .toInstant(ZoneOffset.UTC)
                .toString();
    }
}

package org.agentmemory.it;

import static org.agentmemory.it.support.Api.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agentmemory.conversation.control.Normalizer;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Locomo;
import org.junit.jupiter.api.Test;

/**
 * Real conversations in and out: the LoCoMo dev conversations are imported through {@code POST /import}
 * and exported again through the export endpoints, identical in content and order; importing the export
 * changes nothing.
 */
class LocomoImportExportIT {

    @Test
    void locomoConversationsImportAndExportIdentically() throws Exception {
        Api api = Api.postgres();
        List<Map<String, Object>> lines = Locomo.importLines(Locomo.turnsFile());
        StringBuilder jsonl = new StringBuilder();
        for (Map<String, Object> line : lines) {
            jsonl.append(Api.JSON.writeValueAsString(line)).append('\n');
        }
        Api.Response imported = api.postRaw("/import", jsonl.toString(), "application/x-ndjson");
        assertThat(imported.status()).as(imported.body()).isEqualTo(200);
        JsonNode report = imported.json();
        assertThat(report.get("errors")).as(report.toString()).isEmpty();
        assertThat(report.get("linesRead").asLong()).isEqualTo(lines.size());
        assertThat(report.get("turnsImported").asLong()).isEqualTo(lines.size());
        assertThat(report.get("conversationsCreated").asLong()).isEqualTo(128);

        Set<String> users = new LinkedHashSet<>();
        lines.forEach(l -> users.add((String) ((Map<?, ?>) l.get("key")).get("userId")));
        List<JsonNode> exported = new ArrayList<>();
        StringBuilder exportText = new StringBuilder();
        for (String user : users) {
            Api.Response export = api.get("/export" + query("userId", user, "chatbotId", "locomo"));
            assertThat(export.status()).isEqualTo(200);
            assertThat(export.contentType()).startsWith("application/x-ndjson");
            exportText.append(export.body());
            for (String line : export.body().split("\n")) {
                exported.add(Api.JSON.readTree(line));
            }
        }
        assertThat(exported).hasSize(lines.size());
        int normalized = 0;
        for (int i = 0; i < lines.size(); i++) {
            JsonNode in = Api.JSON.valueToTree(lines.get(i));
            JsonNode out = exported.get(i);
            assertThat(out.get("key")).as("line %d", i).isEqualTo(in.get("key"));
            for (String field : List.of("turnId", "timestamp", "metadata")) {
                assertThat(out.get("turn").get(field))
                        .as("line %d %s", i, field)
                        .isEqualTo(in.get("turn").get(field));
            }
            // Messages come back in the canonical form every write stores (spec §2: e.g. no trailing blanks).
            for (String field : List.of("userMessage", "assistantResponse")) {
                String sent = in.get("turn").get(field).asText();
                String stored = out.get("turn").get(field).asText();
                assertThat(stored).as("line %d %s", i, field).isEqualTo(Normalizer.normalizeText(sent));
                if (!stored.equals(sent)) {
                    normalized++;
                }
            }
            assertThat(out.at("/turn/tokenCount/total").asInt()).isPositive();
        }
        // Nearly all LoCoMo text is already canonical; a few utterances end in a blank.
        assertThat(normalized).isLessThan(lines.size() / 20);
        // Sequences within each conversation are dense and in import order.
        assertThat(exported.get(1).at("/turn/sequence").asLong())
                .isEqualTo(exported.get(0).at("/turn/sequence").asLong() + 1);

        Api.Response again = api.postRaw("/import", exportText.toString(), "application/x-ndjson");
        assertThat(again.json().get("duplicates").asLong()).isEqualTo(lines.size());
        assertThat(again.json().get("turnsImported").asLong()).isZero();
        StringBuilder secondExport = new StringBuilder();
        for (String user : users) {
            secondExport.append(api.get("/export" + query("userId", user, "chatbotId", "locomo"))
                    .body());
        }
        assertThat(secondExport.toString()).isEqualTo(exportText.toString());

        JsonNode single = api.get("/conversations/lookup"
                        + query("userId", "conv-26", "sessionId", "session-1", "chatbotId", "locomo"))
                .json();
        String oneConversation = api.get(
                        "/conversations/" + single.get("conversationId").asLong() + "/export")
                .body();
        assertThat(oneConversation.split("\n")).hasSize(single.get("turns").size());
    }

    @Test
    void aBadLineIsReportedAndNeverAbortsTheGoodOnes() {
        Api api = Api.postgres();
        String user = org.agentmemory.it.support.Turns.unique("import-bad");
        String body = String.join(
                "\n",
                "{\"key\":{\"userId\":\"" + user
                        + "\",\"sessionId\":\"s\"},\"turn\":{\"turnId\":\"1\",\"userMessage\":\"a\"}}",
                "{not json",
                "{\"key\":{\"userId\":\"bad\\u0001id\",\"sessionId\":\"s\"},\"turn\":{\"turnId\":\"2\"}}",
                "",
                "{\"key\":{\"userId\":\"" + user
                        + "\",\"sessionId\":\"s\"},\"turn\":{\"turnId\":\"3\",\"bogus\":true}}",
                "{\"key\":{\"userId\":\"" + user
                        + "\",\"sessionId\":\"s\"},\"turn\":{\"turnId\":\"4\",\"userMessage\":\"d\"}}",
                "{\"key\":{\"userId\":\"" + user + "\",\"sessionId\":\"s\"}}");
        Api.Response r = api.postRaw("/import", body, "application/x-ndjson");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode report = r.json();
        assertThat(report.get("linesRead").asLong()).isEqualTo(6);
        assertThat(report.get("turnsImported").asLong()).isEqualTo(2);
        List<Long> badLines = new ArrayList<>();
        report.get("errors").forEach(e -> badLines.add(e.get("line").asLong()));
        assertThat(badLines).containsExactly(2L, 3L, 5L, 7L);
        assertThat(report.at("/errors/1/field").asText()).isEqualTo("key.userId");
        assertThat(report.at("/errors/2/field").asText()).isEqualTo("turn.bogus");
        JsonNode h = api.get("/conversations/lookup" + query("userId", user, "sessionId", "s"))
                .json();
        assertThat(org.agentmemory.it.support.Turns.turnIds(h)).containsExactly("1", "4");
    }
}

package org.agentmemory.it;

import static org.agentmemory.it.support.Episodes.episode;
import static org.agentmemory.it.support.Episodes.ns;
import static org.agentmemory.it.support.Episodes.recall;
import static org.agentmemory.it.support.Episodes.record;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.text.Normalizer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.EpisodicMemoryRemote;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.episodic.RecallRequest;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.RemoteClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Episodic recall against the real Lucene index inside both WildFly servers: the namespace filter holds in
 * every mode (ids with quotes, backslashes and wildcards; another user's, agent's or tenant's episodes never
 * come back), composed and decomposed Unicode find each other, and times are UTC whatever the zones of the
 * server (America/Sao_Paulo) and of this client (Asia/Kathmandu).
 */
class EpisodicRecallIT {

    static List<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2());
    }

    private static final String SITUATION =
            "Deploying the billing service failed because the database migration" + " locked the invoices table";
    private static final String ACTION = "Ran the schema migration during business hours";

    @ParameterizedTest
    @MethodSource("servers")
    void namespaceFilterHoldsInEveryModeForIdsWithQuotesBackslashesAndWildcards(Api api) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String agent = "agent \"*?\\ " + run;
        String mine = "o'brien\"\\*" + run;
        // Every other namespace differs in one field only; a wildcard or prefix reading of the ids would match them.
        String theirs = "o'brien\"\\*" + run + "x";
        String wildcardUser = "o'brien\"\\" + run;
        Map<String, Object> me = ns(agent, mine);
        JsonNode own = record(api, episode(me, SITUATION, ACTION, "failure"));
        record(api, episode(ns(agent, theirs), SITUATION, ACTION, "failure"));
        record(api, episode(ns(agent, wildcardUser), SITUATION + " again", ACTION, "failure"));
        record(api, episode(ns(agent + "*", mine), SITUATION, ACTION, "failure"));
        record(api, episode(ns("*", mine), SITUATION, ACTION, "failure"));

        for (String mode : List.of("vector", "full_text", "hybrid")) {
            List<JsonNode> hits = recall(api, me, "billing deployment failed on a locked invoices table", mode, 20);
            assertThat(hits).as("%s on %s", mode, api).hasSize(1);
            JsonNode hit = hits.get(0).get("episode");
            assertThat(hit.get("episodeId").asText())
                    .isEqualTo(own.get("episodeId").asText());
            assertThat(hit.get("namespace").get("userId").asText()).isEqualTo(mine);
            assertThat(hit.get("namespace").get("agentId").asText()).isEqualTo(agent);
        }
        // The agent-wide namespace sees every user of the agent, and only that agent.
        List<JsonNode> agentWide = recall(api, ns(agent, null), "billing deployment locked invoices", "hybrid", 20);
        assertThat(agentWide)
                .hasSize(3)
                .allSatisfy(h -> assertThat(
                                h.get("episode").get("namespace").get("agentId").asText())
                        .isEqualTo(agent));
    }

    @ParameterizedTest
    @MethodSource("servers")
    void otherTenantsEpisodesNeverComeBack(Api api) throws Exception {
        if (!api.name().equals("postgresql")) {
            return;
        }
        RemoteClient.assumeRemoting();
        EpisodicMemoryRemote remote = RemoteClient.episodicMemory();
        // Another tenant's client: a remote caller acts in its user's tenant (issue 32 item 2), here ejb-tenant-a,
        // whatever tenant its namespace names.
        EpisodicMemoryRemote otherClient = RemoteClient.episodicMemory(RemoteClient.ALICE);
        String run = UUID.randomUUID().toString().substring(0, 8);
        MemoryNamespace other = new MemoryNamespace("tenant-" + run, "agent-" + run, "user-" + run, null, null, null);
        MemoryNamespace mine = new MemoryNamespace("default", "agent-" + run, "user-" + run, null, null, null);
        otherClient.recordEpisode(EpisodeInput.builder(other, SITUATION, ACTION, EpisodeOutcome.FAILURE)
                .generateReflection(false)
                .build());
        remote.recordEpisode(EpisodeInput.builder(mine, SITUATION, ACTION, EpisodeOutcome.FAILURE)
                .errorMessage("lock wait timeout on invoices")
                .generateReflection(false)
                .build());
        for (RecallMode mode : RecallMode.values()) {
            List<EpisodeSearchResult> hits = remote.recallSimilar(
                    new RecallRequest(mine, "billing migration locked", 20, -1.0, null, false, mode));
            assertThat(hits).as(mode.value()).hasSize(1);
            assertThat(hits.get(0).episode().namespace().tenantId()).isEqualTo("default");
            List<EpisodeSearchResult> theirs = otherClient.recallSimilar(
                    new RecallRequest(other, "billing migration locked", 20, -1.0, null, false, mode));
            assertThat(theirs).as(mode.value()).hasSize(1);
            assertThat(theirs.get(0).episode().namespace().tenantId()).isEqualTo("ejb-tenant-a");
        }
        assertThat(remote.failureWarnings(mine, "billing", 5))
                .startsWith("MISTAKES TO AVOID:\n- Deploying the billing" + " service")
                .endsWith("\u2014 lock wait timeout on invoices");
        assertThat(otherClient.failureWarnings(other, "billing", 5)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("servers")
    void composedAndDecomposedUnicodeFindEachOther(Api api) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String composed = "Caf\u00e9 r\u00e9sum\u00e9 upload to the na\u00efve parser crashed";
        String decomposed = Normalizer.normalize(composed, Normalizer.Form.NFD);
        assertThat(decomposed).isNotEqualTo(composed);
        Map<String, Object> a = ns("unicode-" + run, "composed");
        Map<String, Object> b = ns("unicode-" + run, "decomposed");
        JsonNode storedA = record(api, episode(a, composed, "Uploaded the file", "failure"));
        JsonNode storedB = record(api, episode(b, decomposed, "Uploaded the file", "failure"));
        // Stored in NFC either way.
        assertThat(storedB.get("situation").asText()).isEqualTo(composed);
        for (String mode : List.of("vector", "full_text", "hybrid")) {
            assertThat(recall(api, a, "r\u00e9sum\u00e9 na\u00efve", mode, 5))
                    .as(mode)
                    .extracting(h -> h.get("episode").get("episodeId").asText())
                    .containsExactly(storedA.get("episodeId").asText());
            assertThat(recall(
                            api, a, Normalizer.normalize("r\u00e9sum\u00e9 na\u00efve", Normalizer.Form.NFD), mode, 5))
                    .as(mode)
                    .extracting(h -> h.get("episode").get("episodeId").asText())
                    .containsExactly(storedA.get("episodeId").asText());
            assertThat(recall(api, b, "caf\u00e9 r\u00e9sum\u00e9", mode, 5))
                    .as(mode)
                    .extracting(h -> h.get("episode").get("episodeId").asText())
                    .containsExactly(storedB.get("episodeId").asText());
        }
    }

    @ParameterizedTest
    @MethodSource("servers")
    void timesAreUtcAndTtlIsExactWhateverTheZones(Api api) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Instant before = Instant.now().minusSeconds(1);
        Map<String, Object> body =
                episode(ns("ttl-" + run, null), "Nightly export timed out", "Exported 2 GB", "timeout");
        body.put("ttlDays", 3);
        JsonNode stored = record(api, body);
        Instant after = Instant.now().plusSeconds(1);
        Instant created = Instant.parse(stored.get("createdAt").asText());
        Instant expires = Instant.parse(stored.get("expiresAt").asText());
        assertThat(stored.get("createdAt").asText()).endsWith("Z");
        assertThat(created).isBetween(before, after);
        assertThat(Duration.between(created, expires)).isEqualTo(Duration.ofDays(3));
        JsonNode read = api.get("/episodes/" + stored.get("episodeId").asText()).json();
        assertThat(Instant.parse(read.get("createdAt").asText())).isEqualTo(created);
        assertThat(Instant.parse(read.get("expiresAt").asText())).isEqualTo(expires);
        // Automatic importance: timeout = 7 (spec §10.2); a failure episode.
        assertThat(read.get("importance").asInt()).isEqualTo(7);

        Map<String, Object> forever = episode(ns("ttl-" + run, null), "Never expires", "Kept", "success");
        forever.put("ttlDays", 0);
        assertThat(record(api, forever).get("expiresAt").isNull()).isTrue();
        Map<String, Object> byDefault = episode(ns("ttl-" + run, null), "Default expiry", "Kept", "success");
        JsonNode defaulted = record(api, byDefault);
        assertThat(Duration.between(
                        Instant.parse(defaulted.get("createdAt").asText()),
                        Instant.parse(defaulted.get("expiresAt").asText())))
                .isEqualTo(Duration.ofDays(90));
    }
}

package org.agentmemory.it.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.episodic.RecallRequest;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.agentmemory.api.recall.ReindexStatus;
import org.agentmemory.conversation.boundary.ConversationBeans;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.episodic.boundary.EpisodicBeans;
import org.agentmemory.episodic.control.TestReflection;
import org.agentmemory.episodic.entity.Episode;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.config.TestSettings;
import org.agentmemory.recall.boundary.RecallBeans;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.orm.scope.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The product's mass reindex on OpenSearch: {@code SearchReindexBean.run} (Hibernate Search's mass indexer with
 * purge on start and a merge into one segment at the end, vectors read from the rows, no model) rebuilds the
 * episode and message indexes in a real OpenSearch 2.19.1 node from the database alone.
 *
 * <p>What it proves: after the indexes are emptied and rebuilt, episodic recall and conversation recall in vector,
 * full-text and hybrid mode return the same hits in the same order as before, for several namespaces and users (ids
 * with quotes, backslashes and wildcards), with the same scores in vector mode (cosines) and hybrid mode (rank
 * fusion), and the reindex reports every row as indexed. Full-text (BM25) scores are only checked for order: on
 * OpenSearch the purged documents stay in the shard as soft deletes (retained by the retention lease, even through
 * a force merge) and still count in BM25's statistics, so the raw numbers rise after a purge and reindex.
 */
@ExtendWith(OpenSearchNode.Resolver.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class ReindexOpenSearchIT {

    private OpenSearchNode node;

    private static final List<MemoryNamespace> NAMESPACES = List.of(
            new MemoryNamespace("acme", "ops-bot", "dan\"\\*?", null, null, null),
            new MemoryNamespace("acme", "ops-bot", "*", null, null, null),
            new MemoryNamespace("acme?", "ops-bot", "dan\"\\*?", null, null, null));
    private static final List<String> USERS = List.of("erin\"\\*?", "erin");
    private static final List<String> QUERIES = List.of(
            "billing deployment lock timeout",
            "cache eviction slowed the search page",
            "what did we learn about retries?");

    private SearchUnit unit;
    private EpisodicBeans episodic;
    private RecallBeans recall;

    @BeforeAll
    void writeData(OpenSearchNode node) throws Exception {
        this.node = node;
        unit = SearchUnit.start(node);
        Settings settings =
                TestSettings.of(Map.of("memory.tokenizer", "heuristic", "memory.recall.embedding", "inline"));
        episodic = new EpisodicBeans(unit.emf(), settings, TestReflection.of(Map.of()));
        recall = new RecallBeans(unit.emf(), settings);
        List<EpisodeInput> inputs = new ArrayList<>();
        for (MemoryNamespace ns : NAMESPACES) {
            inputs.add(EpisodeInput.builder(
                            ns,
                            "Deploy of the billing service failed on a lock timeout",
                            "Ran the migration at noon",
                            EpisodeOutcome.FAILURE)
                    .errorMessage("lock timeout")
                    .build());
            inputs.add(EpisodeInput.builder(
                            ns,
                            "Search page got slow after the cache eviction change",
                            "Reverted the eviction policy",
                            EpisodeOutcome.PARTIAL)
                    .build());
            inputs.add(EpisodeInput.builder(
                            ns,
                            "Payment provider returned 503 errors during the sale",
                            "Retried with exponential backoff",
                            EpisodeOutcome.SUCCESS)
                    .lessonLearned("Retries with backoff and a circuit breaker keep checkout alive")
                    .build());
        }
        episodic.call(memory -> memory.recordEpisodes(inputs));
        ConversationBeans conversations = new ConversationBeans(unit.emf(), settings);
        for (String user : USERS) {
            ConversationKey key = new ConversationKey(ConversationKey.DEFAULT_TENANT, "helper", user, "s-1");
            conversations.inTransaction(m -> m.addTurns(
                    key,
                    List.of(
                            TurnRecord.of(
                                    "1",
                                    "The billing deploy failed again with a lock timeout",
                                    "I will look at the locks."),
                            TurnRecord.of(
                                    "2", "Search is slow since the cache change", "The eviction policy was reverted."),
                            TurnRecord.of(
                                    "3", "Should we retry the payment calls?", "Yes, with backoff and a breaker."))));
        }
    }

    @AfterAll
    void close() {
        if (unit != null) {
            unit.close();
        }
    }

    /** A search's hits: ids in order and their scores. */
    private record Hits(List<String> ids, List<Double> scores) {}

    private Map<String, Hits> everySearch() throws Exception {
        Map<String, Hits> all = new LinkedHashMap<>();
        for (RecallMode mode : RecallMode.values()) {
            for (String query : QUERIES) {
                for (MemoryNamespace ns : NAMESPACES) {
                    List<EpisodeSearchResult> results = episodic.call(
                            m -> m.recallSimilar(new RecallRequest(ns, query, 10, -1.0, null, false, mode)));
                    all.put(
                            "episodes " + mode + " " + ns + " " + query,
                            new Hits(
                                    results.stream()
                                            .map(r -> r.episode().episodeId())
                                            .toList(),
                                    results.stream()
                                            .map(EpisodeSearchResult::score)
                                            .toList()));
                }
                for (String user : USERS) {
                    List<MessageHit> hits = recall.searchMessages(new MessageRecallRequest(
                            ConversationKey.DEFAULT_TENANT, user, null, null, query, mode, 10));
                    all.put(
                            "messages " + mode + " " + user + " " + query,
                            new Hits(
                                    hits.stream()
                                            .map(h -> h.conversationId() + "/" + h.turnId() + "/" + h.role())
                                            .toList(),
                                    hits.stream().map(MessageHit::score).toList()));
                }
            }
        }
        return all;
    }

    @Test
    @org.junit.jupiter.api.Order(2) // after the reindex test, whose document counts it would change
    void mergeLeavesOneSegmentPerIndex() throws Exception {
        // More writes, each refreshed on its own ("sync" indexing), leave several segments behind.
        for (int i = 0; i < 4; i++) {
            MemoryNamespace ns = new MemoryNamespace("acme", "merge-bot", "user-" + i, null, null, null);
            episodic.call(memory -> memory.recordEpisodes(List.of(EpisodeInput.builder(
                            ns,
                            "Nightly export job number " + ns.userId() + " ran out of memory",
                            "Raised the heap",
                            EpisodeOutcome.FAILURE)
                    .build())));
        }
        assertThat(SearchUnit.searchableSegments(node, Episode.INDEX)).isGreaterThan(1);

        ReindexStatus status = recall.merge();

        assertThat(status.state()).as("merge ended with %s", status.message()).isEqualTo("done");
        assertThat(SearchUnit.searchableSegments(node, Episode.INDEX)).isEqualTo(1);
        assertThat(SearchUnit.searchableSegments(node, TurnMessage.INDEX)).isEqualTo(1);
    }

    @Test
    @org.junit.jupiter.api.Order(1)
    void reindexFromTheDatabaseGivesIdenticalResults() throws Exception {
        Map<String, Hits> before = everySearch();
        long[] counts = unit.documentCounts();
        assertThat(counts).containsExactly(3L * NAMESPACES.size(), 6L * USERS.size());
        assertThat(before.values()).allSatisfy(h -> assertThat(h.ids()).isNotEmpty());

        // Empty both indexes first, so only the reindex can bring the documents back.
        SearchScope<Object> scope = Search.mapping(unit.emf()).scope(SearchUnit.indexed());
        scope.workspace().purge();
        scope.workspace().refresh();
        assertThat(unit.documentCounts()).containsExactly(0L, 0L);
        assertThat(everySearch().values()).allSatisfy(h -> assertThat(h.ids()).isEmpty());

        ReindexStatus status = recall.reindex();
        assertThat(status.state()).as("reindex ended with %s", status.message()).isEqualTo("done");
        assertThat(status.entitiesTotal()).isEqualTo(counts[0] + counts[1]);
        assertThat(status.documentsAdded()).isEqualTo(counts[0] + counts[1]);
        assertThat(unit.documentCounts()).containsExactly(counts);
        // The reindex ends with a merge into one segment per index (k-NN walks one HNSW graph per segment).
        assertThat(SearchUnit.searchableSegments(node, Episode.INDEX)).isEqualTo(1);
        assertThat(SearchUnit.searchableSegments(node, TurnMessage.INDEX)).isEqualTo(1);

        Map<String, Hits> after = everySearch();
        assertThat(after.keySet()).containsExactlyElementsOf(before.keySet());
        before.forEach((search, hits) -> {
            Hits again = after.get(search);
            assertThat(again.ids()).as(search).containsExactlyElementsOf(hits.ids());
            if (search.contains(" " + RecallMode.FULL_TEXT + " ")) {
                // BM25 statistics on OpenSearch still count the purged documents (soft deletes are retained, even
                // through a merge), so raw full-text scores drift upwards after a purge and reindex: same hits, same
                // order, not the same numbers.
                assertThat(again.scores()).as(search).isSortedAccordingTo(java.util.Comparator.reverseOrder());
                return;
            }
            for (int i = 0; i < hits.scores().size(); i++) {
                assertThat(again.scores().get(i))
                        .as("%s, score of hit %d", search, i)
                        .isCloseTo(hits.scores().get(i), within(1e-5));
            }
        });
    }
}

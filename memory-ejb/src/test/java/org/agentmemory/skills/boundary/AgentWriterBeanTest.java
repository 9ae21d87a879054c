package org.agentmemory.skills.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.embedding.Embeddings;
import org.agentmemory.skills.control.CrossDomainRouting;
import org.junit.jupiter.api.Test;

/**
 * A domain description the episodes' model cannot embed gives no vector instead of an error, and the router then skips
 * the agent while routing to the others (spec §9.5: failures are logged and that agent is skipped).
 */
class AgentWriterBeanTest {

    @Test
    void aDescriptionTheModelRejectsIsSkippedAndTheOthersAreStillRouted() {
        EmbeddingModel model = Embeddings.forName("all-minilm-l6-v2-q");
        AgentWriterBean.DescriptionVector broken = AgentWriterBean.embed(model, "broken", "\uFFFD\uFFFD\uFFFD");
        float[] unreadable = broken.vector();
        float[] readable = AgentWriterBean.embed(model, "db", "PostgreSQL database backups and restores")
                .vector();
        assertThat(unreadable).isNull();
        assertThat(broken.settled())
                .as("the text's fault: kept until the description changes")
                .isTrue();
        assertThat(readable).hasSize(model.dimension());

        List<CrossDomainRouting.Route> routes = CrossDomainRouting.route(
                model.embedQuery("restore the PostgreSQL database from the backup"),
                "support",
                List.of(
                        new CrossDomainRouting.Candidate("broken", unreadable),
                        new CrossDomainRouting.Candidate("db", readable)),
                new CrossDomainRouting.Limits(0.5, 0.6, 2, 2),
                3);
        assertThat(routes).extracting(CrossDomainRouting.Route::agentId).containsExactly("db");
    }

    @Test
    void aFailureOfTheModelItselfIsNotKeptSoTheNextWriteOrQueryTriesAgain() {
        EmbeddingModel failing = new EmbeddingModel() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public int dimension() {
                return 3;
            }

            @Override
            public float[] embed(String text) {
                throw new IllegalStateException("native library not loaded");
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                throw new IllegalStateException("native library not loaded");
            }
        };
        AgentWriterBean.DescriptionVector none = AgentWriterBean.embed(failing, "db", "PostgreSQL backups");
        assertThat(none.vector()).isNull();
        assertThat(none.settled()).isFalse();
    }
}

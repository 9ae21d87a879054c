package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.agentmemory.api.context.ContextSection;
import org.agentmemory.api.context.ContextSectionProvider;
import org.agentmemory.api.context.SectionQuery;
import org.agentmemory.api.conversation.ConversationKey;
import org.junit.jupiter.api.Test;

class ContextSectionsTest {

    private static final SectionQuery WARNINGS = new SectionQuery(
            ContextSection.EPISODIC_WARNINGS, ConversationKey.of("bot", "alice", "s1"), 7L, "deploy", 3);

    private final List<SectionQuery> asked = new ArrayList<>();

    private ContextSectionProvider provider(ContextSection section, int order, String text) {
        return new ContextSectionProvider() {
            @Override
            public ContextSection section() {
                return section;
            }

            @Override
            public int order() {
                return order;
            }

            @Override
            public String provide(SectionQuery query) {
                asked.add(query);
                if (text == null) {
                    throw new IllegalStateException("backend down");
                }
                return text;
            }
        };
    }

    @Test
    void nothingPluggedInIsAnEmptySection() {
        assertThat(ContextSections.fill(List.of(), WARNINGS)).isEmpty();
    }

    @Test
    void providersOfTheSectionAreJoinedByOrderThenNameWithBlankLines() {
        List<ContextSections.Plugged> plugged = List.of(
                new ContextSections.Plugged("b.Episodes", provider(ContextSection.EPISODIC_WARNINGS, 0, "second")),
                new ContextSections.Plugged("z.Brain", provider(ContextSection.BRAIN_KNOWLEDGE, -5, "not asked")),
                new ContextSections.Plugged(
                        "c.Remote", provider(ContextSection.EPISODIC_WARNINGS, 2, "[cross-domain: x]\nthird")),
                new ContextSections.Plugged("a.Empty", provider(ContextSection.EPISODIC_WARNINGS, 0, "")),
                new ContextSections.Plugged("d.Local", provider(ContextSection.EPISODIC_WARNINGS, -1, "first")));
        assertThat(ContextSections.fill(plugged, WARNINGS)).isEqualTo("first\n\nsecond\n\n[cross-domain: x]\nthird");
        assertThat(asked).hasSize(4).allMatch(q -> q == WARNINGS);
    }

    @Test
    void aFailingProviderContributesNothingAndTheOthersStillCount() {
        List<ContextSections.Plugged> plugged = List.of(
                new ContextSections.Plugged("a.Broken", provider(ContextSection.EPISODIC_WARNINGS, 0, null)),
                new ContextSections.Plugged("b.Working", provider(ContextSection.EPISODIC_WARNINGS, 0, "still here")));
        assertThat(ContextSections.fill(plugged, WARNINGS)).isEqualTo("still here");
        assertThat(asked).hasSize(2);
    }
}

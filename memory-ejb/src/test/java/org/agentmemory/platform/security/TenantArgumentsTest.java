package org.agentmemory.platform.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.List;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.answer.AnswerMemoryOperations;
import org.agentmemory.api.context.ContextMemoryOperations;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ImportLine;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.EpisodicMemoryOperations;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.recall.ConversationRecallOperations;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.junit.jupiter.api.Test;

class TenantArgumentsTest {

    private static final List<Class<?>> VIEWS = List.of(
            ConversationMemoryOperations.class,
            EpisodicMemoryOperations.class,
            ContextMemoryOperations.class,
            AnswerMemoryOperations.class,
            ConversationRecallOperations.class,
            org.agentmemory.api.brain.BrainMemoryOperations.class);

    @Test
    void tenantParametersKeysAndNamespacesBecomeTheCallersTenant() throws Exception {
        Method byId = ConversationMemoryOperations.class.getMethod("getHistoryById", String.class, long.class);
        Object[] scoped = TenantArguments.scoped(byId.getParameters(), new Object[] {"other", 7L}, "acme");
        assertThat(scoped).containsExactly("acme", 7L);

        Object key = TenantArguments.scoped(ConversationKey.of("bot", "u", "s"), "acme");
        assertThat(key).isEqualTo(new ConversationKey("acme", "bot", "u", "s"));

        EpisodeInput input = EpisodeInput.builder(
                        MemoryNamespace.of("other", "agent").withUser("u"),
                        "situation",
                        "action",
                        EpisodeOutcome.SUCCESS)
                .build();
        EpisodeInput scopedInput = (EpisodeInput) TenantArguments.scoped(input, "acme");
        assertThat(scopedInput.namespace())
                .isEqualTo(MemoryNamespace.of("acme", "agent").withUser("u"));
        assertThat(scopedInput.situation()).isEqualTo("situation");

        List<?> lines = (List<?>) TenantArguments.scoped(
                List.of(new ImportLine(1, ConversationKey.of("bot", "u", "s"), TurnRecord.of("t", "q", "a"))), "acme");
        assertThat(((ImportLine) lines.get(0)).key().tenantId()).isEqualTo("acme");

        MessageRecallRequest search = new MessageRecallRequest("other", "u", null, null, "q", null, 5);
        assertThat(((MessageRecallRequest) TenantArguments.scoped(search, "acme")).tenantId())
                .isEqualTo("acme");
    }

    @Test
    void argumentsWithoutATenantAreLeftAlone() {
        TurnRecord turn = TurnRecord.of("t", "q", "a");
        assertThat(TenantArguments.scoped(turn, "acme")).isSameAs(turn);
        List<TurnRecord> turns = List.of(turn);
        assertThat(TenantArguments.scoped(turns, "acme")).isSameAs(turns);
        assertThat(TenantArguments.scoped("text", "acme")).isEqualTo("text");
        assertThat(TenantArguments.scoped(null, "acme")).isNull();
    }

    @Test
    void everyOperationOfThePublicViewsDeclaresItsRole() {
        for (Class<?> view : VIEWS) {
            for (Method m : view.getMethods()) {
                RequiresRole role = m.getAnnotation(RequiresRole.class);
                assertThat(role).as(view.getSimpleName() + "." + m.getName()).isNotNull();
                assertThat(CallerScope.LADDER).contains(role.value());
            }
        }
    }

    @Test
    void everyTenantParameterIsNamedSoTheScopeFindsIt() {
        for (Class<?> view : VIEWS) {
            for (Method m : view.getMethods()) {
                for (java.lang.reflect.Parameter p : m.getParameters()) {
                    assertThat(p.isNamePresent())
                            .as("compiled with -parameters")
                            .isTrue();
                    if (p.getName().toLowerCase(java.util.Locale.ROOT).contains("tenant")) {
                        assertThat(p.getName()).isEqualTo(TenantArguments.TENANT);
                        assertThat(p.getType()).isEqualTo(String.class);
                    }
                }
            }
        }
    }
}

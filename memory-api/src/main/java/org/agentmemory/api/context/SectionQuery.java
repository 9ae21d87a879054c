package org.agentmemory.api.context;

import java.io.Serializable;
import org.agentmemory.api.conversation.ConversationKey;

/**
 * What a {@link ContextSectionProvider} is asked for.
 *
 * @param section        the section being filled; never {@code null}
 * @param key            the conversation's key (tenant, agent, user, session); never {@code null}
 * @param conversationId the conversation, or {@code null} when the key has no conversation yet
 * @param query          the query text; never {@code null}, may be empty
 * @param maxItems       how many items the section wants: {@code episodicMaxWarnings} for warnings,
 *                       {@code skillMaxContext} for skills, 0 (no limit given) for brain knowledge
 */
public record SectionQuery(ContextSection section, ConversationKey key, Long conversationId, String query, int maxItems)
        implements Serializable {}

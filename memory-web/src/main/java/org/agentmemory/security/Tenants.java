package org.agentmemory.security;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.MemoryNamespace;

/**
 * The caller of the current request, as {@link AuthenticationFilter} verified it: every read and write of the
 * request is scoped to its tenant, which comes from the caller's token and never from the request's body or query.
 *
 * <p>A token may also be narrowed to one user and/or one agent (issue 32 item 1; claims configured by
 * {@code memory.security.user-claim} and {@code memory.security.agent-claim}). Resources pass every user and agent
 * id a request names through {@link #userId}, {@link #agentId} or {@link #key}: an id outside the
 * scope is refused with 403 ({@link OutOfScopeException}), an absent one is narrowed to the scope. Reads by
 * conversation id are checked by {@link ConversationScopeFilter}; another user's conversation answers 404, as one that
 * does not exist.
 */
@RequestScoped
public class Tenants {

    private Caller caller;

    @EJB
    ConversationMemory conversations;

    /**
     * Called by {@link AuthenticationFilter} once the request is authenticated and admitted.
     *
     * @param verified the caller
     */
    public void authenticated(Caller verified) {
        this.caller = verified;
    }

    /**
     * @return the tenant of the current request
     * @throws IllegalStateException when the request was not authenticated (a resource reached without the filter:
     *                               a defect, refused rather than answered for some default tenant)
     */
    public String current() {
        return verified().tenant();
    }

    /** @return the verified caller, or {@code null} before authentication */
    public Caller caller() {
        return caller;
    }

    private Caller verified() {
        if (caller == null) {
            throw new IllegalStateException("The request was not authenticated; no tenant to scope it to.");
        }
        return caller;
    }

    /**
     * @param field the request field that names the user (for the problem)
     * @param given the user the request names, or {@code null}
     * @return {@code given}, or the token's user when the request names none
     * @throws OutOfScopeException when the token is narrowed to another user
     */
    public String userId(String field, String given) {
        return narrowed(field, given, verified().user(), "user");
    }

    /**
     * @param field the request field that names the agent or chatbot (for the problem)
     * @param given the agent the request names, or {@code null}
     * @return {@code given}, or the token's agent when the request names none
     * @throws OutOfScopeException when the token is narrowed to another agent
     */
    public String agentId(String field, String given) {
        return narrowed(field, given, verified().agent(), "agent");
    }

    private static String narrowed(String field, String given, String scope, String what) {
        if (scope == null || scope.equals(given)) {
            return given;
        }
        if (given == null) {
            return scope;
        }
        throw new OutOfScopeException(
                field, field + " names another " + what + " than the one the token is scoped to: '" + scope + "'.");
    }

    /**
     * @param prefix    prefix of the field names in problems, e.g. {@code "key."}, or {@code ""}
     * @param chatbotId the agent, or {@code null} for the default agent (the token's agent when it is narrowed)
     * @param userId    the user, or {@code null} (the token's user when it is narrowed)
     * @param sessionId the session
     * @return the key in the caller's tenant
     * @throws OutOfScopeException   when the key names another user or agent than the token's
     * @throws InvalidInputException when it names no user and the token is not narrowed to one (rule
     *                               {@code not-null}, as the other required fields of a body)
     */
    public ConversationKey key(String prefix, String chatbotId, String userId, String sessionId)
            throws InvalidInputException {
        String user = userId(prefix + "userId", userId);
        if (user == null) {
            throw new InvalidInputException(prefix + "userId", "not-null", prefix + "userId is required");
        }
        return new ConversationKey(current(), agentId(prefix + "chatbotId", chatbotId), user, sessionId);
    }

    /**
     * Refuses a token narrowed to a user or agent: for operations whose data cannot be narrowed to one (chatbot
     * statistics, answers, administration).
     *
     * @param operation what is refused, for the problem's detail
     * @throws OutOfScopeException when the token is narrowed
     */
    public void unscoped(String operation) {
        if (verified().scoped()) {
            throw new OutOfScopeException(null, operation + " needs a token that is not narrowed to a user or agent.");
        }
    }

    /**
     * @param key a conversation's stored key
     * @return whether the caller may read it: same tenant, and the token's user and agent when narrowed
     */
    public boolean mayRead(ConversationKey key) {
        Caller c = verified();
        return key.tenantId().equals(c.tenant())
                && (c.user() == null || c.user().equals(key.userId()))
                && (c.agent() == null || c.agent().equals(key.chatbotId()));
    }

    /**
     * @param namespace an episode's stored namespace
     * @return whether the caller may read it: same tenant, and the token's user and agent when narrowed
     */
    public boolean mayRead(MemoryNamespace namespace) {
        Caller c = verified();
        return namespace.tenantId().equals(c.tenant())
                && (c.user() == null || c.user().equals(namespace.userId()))
                && (c.agent() == null || c.agent().equals(namespace.agentId()));
    }

    /**
     * @param episode an episode read by id in the caller's tenant
     * @return it, when the caller may read it
     * @throws NotFoundException when it belongs to another user or agent than the token's (the answer for an id that
     *                           does not exist)
     */
    public Episode readable(Episode episode) throws NotFoundException {
        if (!mayRead(episode.namespace())) {
            throw NotFoundException.episode(current(), episode.episodeId());
        }
        return episode;
    }

    /**
     * Checks that a conversation id is one the caller may read; a no-op for a token that is not narrowed (the
     * stores scope every read by id to the tenant themselves).
     *
     * @param conversationId the id a request names
     * @throws NotFoundException when the conversation does not exist in the tenant or belongs to another user or
     *                           agent than the token's (the same answer, no existence oracle)
     */
    public void checkConversation(long conversationId) throws NotFoundException {
        Caller c = verified();
        if (!c.scoped()) {
            return;
        }
        ConversationKey key =
                conversations.getSummary(c.tenant(), conversationId).key();
        if (!mayRead(key)) {
            throw NotFoundException.conversation(c.tenant(), conversationId);
        }
    }

    /** @return whether the token is narrowed to a user or agent */
    public boolean scoped() {
        return verified().scoped();
    }
}

package org.agentmemory.api;

/**
 * A named thing (conversation, turn, omission, episode ...) does not exist in the caller's tenant.
 * REST answers 404.
 */
public class NotFoundException extends MemoryException {

    private static final long serialVersionUID = 1L;

    private final String what;
    private final String id;

    /**
     * @param what the kind of thing, e.g. {@code "conversation"}; never {@code null}
     * @param id   the identifier that was looked up, as given; may be {@code null} when looked up by key
     * @param message full human-readable message
     */
    public NotFoundException(String what, String id, String message) {
        super(message);
        this.what = what;
        this.id = id;
    }

    /**
     * The one answer for a conversation id the caller may not see, whether it does not exist, belongs to another
     * tenant or lies outside the caller's token scope (no existence oracle).
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the id looked up
     * @return the exception
     */
    public static NotFoundException conversation(String tenantId, long conversationId) {
        return new NotFoundException(
                "conversation",
                Long.toString(conversationId),
                "Conversation " + conversationId + " does not exist in tenant '" + tenantId + "'.");
    }

    /**
     * The one answer for an episode id the caller may not see (as {@link #conversation}).
     *
     * @param tenantId  the caller's tenant
     * @param episodeId the id looked up, may be {@code null}
     * @return the exception
     */
    public static NotFoundException episode(String tenantId, String episodeId) {
        return new NotFoundException(
                "episode", episodeId, "Episode " + episodeId + " does not exist in tenant '" + tenantId + "'.");
    }

    /** @return the kind of thing that was not found, e.g. {@code "conversation"} */
    public String what() {
        return what;
    }

    /** @return the identifier that was looked up, or {@code null} */
    public String id() {
        return id;
    }

    @Override
    public String kind() {
        return what.replace('_', '-') + "-not-found";
    }
}

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

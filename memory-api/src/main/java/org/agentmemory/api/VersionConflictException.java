package org.agentmemory.api;

/**
 * An optimistic write lost: the caller's expected version is not the stored one, or concurrent writers
 * kept winning until the bounded retries ran out. Re-read and try again. REST answers 409 (or 412 when the
 * expectation came from an {@code If-Match} header).
 */
public class VersionConflictException extends MemoryException {

    private static final long serialVersionUID = 1L;

    private final long expectedVersion;
    private final long actualVersion;

    /**
     * @param expectedVersion the version the caller based its change on ({@code -1} when none was given)
     * @param actualVersion   the version stored now
     * @param message         full message
     */
    public VersionConflictException(long expectedVersion, long actualVersion, String message) {
        super(message);
        this.expectedVersion = expectedVersion;
        this.actualVersion = actualVersion;
    }

    /** @return the version the caller expected, or {@code -1} */
    public long expectedVersion() {
        return expectedVersion;
    }

    /** @return the version that is stored now */
    public long actualVersion() {
        return actualVersion;
    }

    @Override
    public String kind() {
        return "version-conflict";
    }
}

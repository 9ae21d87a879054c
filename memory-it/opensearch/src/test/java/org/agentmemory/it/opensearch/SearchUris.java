package org.agentmemory.it.opensearch;

/**
 * Points {@code memory.search.uris} (read by the engine-hybrid detection) at a test node for the life of a test class,
 * and puts back what was there on {@link #close()}.
 */
final class SearchUris implements AutoCloseable {

    private static final String PROPERTY = "memory.search.uris";

    private final String previous;

    private SearchUris(String previous) {
        this.previous = previous;
    }

    /**
     * @param node the node every search URI should name
     * @return the handle that restores the previous value
     */
    static SearchUris pointAt(OpenSearchNode node) {
        SearchUris saved = new SearchUris(System.getProperty(PROPERTY));
        System.setProperty(PROPERTY, node.uri());
        return saved;
    }

    @Override
    public void close() {
        if (previous == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, previous);
        }
    }
}

package org.agentmemory.platform.search;

import jakarta.persistence.EntityManagerFactory;
import org.agentmemory.platform.config.Settings;

/** The product's {@link SearchReindexBean} wired as the container wires it, outside a container. */
public final class SearchBeans {

    private SearchBeans() {}

    /**
     * @param emf      the persistence unit
     * @param settings the settings in effect
     * @return a reindex bean whose runs execute on the calling thread
     */
    public static SearchReindexBean reindexBean(EntityManagerFactory emf, Settings settings) {
        SearchReindexBean bean = new SearchReindexBean();
        bean.emf = emf;
        bean.settings = settings;
        return bean;
    }
}

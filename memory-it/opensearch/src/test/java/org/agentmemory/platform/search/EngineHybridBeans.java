package org.agentmemory.platform.search;

import org.agentmemory.platform.config.Settings;

/** The product's {@link EngineHybridBean} started as the container starts it, outside a container. */
public final class EngineHybridBeans {

    private EngineHybridBeans() {}

    /**
     * Runs the bean's start-up detection against the cluster named by the system property {@code memory.search.uris}.
     *
     * @param settings the settings in effect ({@code memory.search.engine-hybrid}, the fusion settings)
     * @return the started bean
     */
    public static EngineHybridBean started(Settings settings) {
        EngineHybridBean bean = new EngineHybridBean();
        bean.settings = settings;
        bean.start();
        return bean;
    }
}

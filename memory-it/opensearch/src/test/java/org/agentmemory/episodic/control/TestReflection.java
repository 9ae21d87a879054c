package org.agentmemory.episodic.control;

import java.util.Map;
import org.agentmemory.platform.config.TestSettings;

/** The product's {@link ReflectionService} as the container builds it, from a map of config properties. */
public final class TestReflection {

    private TestReflection() {}

    /**
     * @param values config keys; without {@code memory.reflection.url} the service reflects with its heuristic
     * @return the service, configured by its own {@code read()}
     */
    public static ReflectionService of(Map<String, String> values) {
        ReflectionService service = new ReflectionService();
        service.config = new TestSettings.MapConfig(values);
        service.read();
        return service;
    }
}

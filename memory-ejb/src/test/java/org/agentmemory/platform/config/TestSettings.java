package org.agentmemory.platform.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

/**
 * The product's {@link Settings}, read and validated by its own {@code read()} as at deployment, from a map of
 * MicroProfile Config properties instead of the server's config sources.
 */
public final class TestSettings {

    private TestSettings() {}

    /**
     * @param values config keys ({@code memory.*}) and values; absent keys take the product's defaults
     * @return the settings in effect
     */
    public static Settings of(Map<String, String> values) {
        Settings settings = new Settings();
        settings.config = new MapConfig(values);
        settings.read();
        return settings;
    }

    /** A config over a map, converting the few types the product reads. */
    public record MapConfig(Map<String, String> values) implements Config {

        @Override
        public <T> T getValue(String name, Class<T> type) {
            return getOptionalValue(name, type).orElseThrow();
        }

        @Override
        public ConfigValue getConfigValue(String name) {
            throw new UnsupportedOperationException("not needed by the tests");
        }

        @Override
        public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
            String raw = values.get(name);
            if (raw == null) {
                return Optional.empty();
            }
            Object value = type == Integer.class
                    ? Integer.valueOf(raw)
                    : type == Long.class
                            ? Long.valueOf(raw)
                            : type == Double.class
                                    ? Double.valueOf(raw)
                                    : type == Boolean.class ? Boolean.valueOf(raw) : raw;
            return Optional.of(type.cast(value));
        }

        @Override
        public Iterable<String> getPropertyNames() {
            return values.keySet();
        }

        @Override
        public Iterable<ConfigSource> getConfigSources() {
            return List.of();
        }

        @Override
        public <T> Optional<Converter<T>> getConverter(Class<T> type) {
            return Optional.empty();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            throw new IllegalArgumentException("not needed by the tests");
        }
    }
}

package org.agentmemory.rest;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.agentmemory.api.config.MemorySettings;
import org.eclipse.microprofile.config.Config;

/**
 * The REST layer's settings (keys documented in {@link MemorySettings}), read and validated at start-up.
 */
@ApplicationScoped
public class RestSettings {

    @Inject
    Config config;

    private long maxBodyBytes;
    private long importMaxBodyBytes;
    private int importMaxLineBytes;
    private int importBatchLines;
    private int importParallelism;
    private int retryAfterSeconds;

    @PostConstruct
    void read() {
        maxBodyBytes = value(
                MemorySettings.REST_MAX_BODY_BYTES, MemorySettings.Defaults.REST_MAX_BODY_BYTES, 1024, Long.MAX_VALUE);
        importMaxBodyBytes = value(
                MemorySettings.IMPORT_MAX_BODY_BYTES,
                MemorySettings.Defaults.IMPORT_MAX_BODY_BYTES,
                1024,
                Long.MAX_VALUE);
        importMaxLineBytes = (int) value(
                MemorySettings.IMPORT_MAX_LINE_BYTES,
                MemorySettings.Defaults.IMPORT_MAX_LINE_BYTES,
                1024,
                Integer.MAX_VALUE - 8);
        importBatchLines =
                (int) value(MemorySettings.IMPORT_BATCH_LINES, MemorySettings.Defaults.IMPORT_BATCH_LINES, 1, 1000);
        importParallelism =
                (int) value(MemorySettings.IMPORT_PARALLELISM, MemorySettings.Defaults.IMPORT_PARALLELISM, 1, 8);
        retryAfterSeconds =
                (int) value(MemorySettings.RETRY_AFTER_SECONDS, MemorySettings.Defaults.RETRY_AFTER_SECONDS, 1, 3600);
    }

    private long value(String key, long defaultValue, long min, long max) {
        long value = config.getOptionalValue(key, Long.class).orElse(defaultValue);
        if (value < min || value > max) {
            throw new IllegalStateException(key + " is " + value + "; it must be between " + min + " and " + max
                    + ". Default: " + defaultValue);
        }
        return value;
    }

    /** @return largest request body outside imports, bytes */
    public long maxBodyBytes() {
        return maxBodyBytes;
    }

    /** @return largest import body, bytes */
    public long importMaxBodyBytes() {
        return importMaxBodyBytes;
    }

    /** @return largest import line, bytes */
    public int importMaxLineBytes() {
        return importMaxLineBytes;
    }

    /** @return import batches stored at once */
    public int importParallelism() {
        return importParallelism;
    }

    /** @return lines per import transaction */
    public int importBatchLines() {
        return importBatchLines;
    }

    /** @return Retry-After seconds on 503 */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}

package org.agentmemory.platform.search;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A file beside the search indexes that says whether the last run of the server closed them cleanly: "running" from
 * start-up on, "stopped-cleanly" once a clean shutdown has flushed them. Anything else (no file, a crash that left
 * "running", an unreadable file) means the indexes may disagree with the database.
 *
 * <p>Written durably: a temporary file is written and forced to disk, then renamed over the marker (atomic), then
 * the directory is forced, so that a crash leaves the old or the new content, never a torn one.
 */
public final class IndexStateMarker {

    /** The marker's file name. */
    public static final String NAME = "index-state";

    static final String RUNNING = "running";
    static final String CLEAN = "stopped-cleanly";

    private final Path file;

    /** @param file the marker file */
    public IndexStateMarker(Path file) {
        this.file = file;
    }

    /** @return the marker file */
    public Path file() {
        return file;
    }

    /**
     * @return whether the marker says the last run stopped cleanly
     * @throws IOException when it exists but cannot be read
     */
    public boolean stoppedCleanly() throws IOException {
        return Files.exists(file)
                && CLEAN.equals(Files.readString(file, StandardCharsets.UTF_8).strip());
    }

    /** @return whether there is a marker at all (a missing one: first start, or a new index directory) */
    public boolean exists() {
        return Files.exists(file);
    }

    /**
     * Records that the indexes are in use: a crash from now on leaves them to be reconciled. When the marker cannot
     * be written, it is deleted, so that an old "stopped-cleanly" cannot hide a crash of this run.
     *
     * @throws IOException when it can be neither written nor deleted
     */
    public void running() throws IOException {
        try {
            write(RUNNING);
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * Records that the indexes were flushed at a clean shutdown.
     *
     * @throws IOException when it cannot be written (the next start then reconciles)
     */
    public void stoppedCleanlyNow() throws IOException {
        write(CLEAN);
    }

    private void write(String state) throws IOException {
        Files.createDirectories(file.getParent());
        Path temp = file.resolveSibling(NAME + ".tmp");
        try (FileChannel out = FileChannel.open(
                temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(ByteBuffer.wrap((state + "\n").getBytes(StandardCharsets.UTF_8)));
            out.force(true);
        }
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException notSupported) {
            // some platforms cannot open a directory; the rename is atomic either way
        }
    }
}

package org.agentmemory.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main class of any module is over {@value #MAX_LINES} lines (CONTRIBUTING.md): a class that grows past it has
 * more than one job and is split. Reads the sources of every module beside this one.
 */
class ClassSizeTest {

    static final int MAX_LINES = 500;

    @Test
    void noMainClassIsOverTheLimit() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<String> tooLong;
        try (Stream<Path> files = Files.walk(root)) {
            tooLong = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .filter(p -> lines(p) > MAX_LINES)
                    .map(p -> root.relativize(p) + " (" + lines(p) + " lines)")
                    .toList();
        }
        assertThat(tooLong).as("main classes over %d lines", MAX_LINES).isEmpty();
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

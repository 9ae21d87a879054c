package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexStateMarkerTest {

    @TempDir
    Path dir;

    @Test
    void onlyAFlushedShutdownCountsAsClean() throws Exception {
        IndexStateMarker marker = new IndexStateMarker(dir.resolve("indexes").resolve(IndexStateMarker.NAME));
        assertThat(marker.exists()).isFalse();
        assertThat(marker.stoppedCleanly()).isFalse(); // first start

        marker.running();
        assertThat(marker.exists()).isTrue();
        assertThat(marker.stoppedCleanly()).isFalse(); // a crash now leaves "running"

        marker.stoppedCleanlyNow();
        assertThat(marker.stoppedCleanly()).isTrue();
        assertThat(new IndexStateMarker(marker.file()).stoppedCleanly()).isTrue(); // read back by the next start
        assertThat(Files.list(marker.file().getParent())).containsExactly(marker.file()); // no temporary left

        marker.running();
        assertThat(marker.stoppedCleanly()).isFalse();
    }

    @Test
    void anythingElseInTheFileIsUnclean() throws Exception {
        Path file = dir.resolve(IndexStateMarker.NAME);
        Files.writeString(file, "stopped-clean"); // torn or foreign content
        assertThat(new IndexStateMarker(file).stoppedCleanly()).isFalse();
    }
}

package org.agentmemory.platform.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A server's id: its node name and a suffix of its own per start. */
class ServerIdentityTest {

    @Test
    void theNodeNameAndARandomSuffixPerStart() {
        String first = ServerIdentity.create("node-a");
        String second = ServerIdentity.create("node-a");

        assertThat(first).matches("node-a/[0-9a-f]{8}");
        assertThat(second).startsWith("node-a/").isNotEqualTo(first);
    }

    @Test
    void aLongNodeNameIsCutAndABlankOneIsTheHostName() {
        assertThat(ServerIdentity.create("n".repeat(300))).hasSize(169);
        assertThat(ServerIdentity.create(" ")).matches(".+/[0-9a-f]{8}").doesNotStartWith(" /");
    }
}

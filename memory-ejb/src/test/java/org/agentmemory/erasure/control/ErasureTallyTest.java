package org.agentmemory.erasure.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.agentmemory.api.erasure.ErasureReceipt;
import org.junit.jupiter.api.Test;

/** The receipt sums what each committed step deleted (issue 34 item 4). */
class ErasureTallyTest {

    @Test
    void theReceiptSumsEveryStep() {
        ErasureTally tally = new ErasureTally();
        tally.episodes(500);
        tally.episodes(12);
        tally.conversations(2, 30, 4, 1, 60);
        tally.conversations(1, 5, 0, 0, 10);
        tally.answers(3);
        tally.pii(2, 7);
        tally.brain(4, List.of(10L, 11L), List.of(12L));
        tally.brain(1, List.of(10L, 13L), List.of());
        tally.brain(1, List.of(), List.of(13L)); // revised by one step, deleted by a later one: deleted
        tally.audit(6);
        tally.extractedSkills(2);
        Instant start = Instant.parse("2026-12-05T10:00:00Z");
        ErasureReceipt r = tally.receipt("r-1", "t", "alice", start, start.plusSeconds(2));

        assertThat(r.episodes()).isEqualTo(512);
        assertThat(r.conversations()).isEqualTo(3);
        assertThat(r.turns()).isEqualTo(35);
        assertThat(r.toolInvocations()).isEqualTo(4);
        assertThat(r.omissions()).isEqualTo(1);
        assertThat(r.messages()).isEqualTo(70);
        assertThat(r.answers()).isEqualTo(3);
        assertThat(r.piiThreads()).isEqualTo(2);
        assertThat(r.piiDetections()).isEqualTo(7);
        assertThat(r.brainStatements()).isEqualTo(6);
        assertThat(r.brainPagesRevised()).as("pages 10 and 11, 10 counted once").isEqualTo(2);
        assertThat(r.brainPagesDeleted()).as("pages 12 and 13").isEqualTo(2);
        assertThat(r.auditEventsRedacted()).isEqualTo(6);
        assertThat(r.extractedSkills()).isEqualTo(2);
        assertThat(r.total()).isEqualTo(512 + 3 + 35 + 4 + 1 + 70 + 3 + 2 + 7 + 6 + 2 + 2 + 2 + 6);
        assertThat(tally.counts()).doesNotContain("alice").startsWith("conversations=3 turns=35");
        assertThat(new ErasureTally().receipt("r-2", "t", "alice", start, start).total())
                .isZero();
    }
}

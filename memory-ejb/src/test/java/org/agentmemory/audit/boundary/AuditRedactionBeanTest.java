package org.agentmemory.audit.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Redacting a subject's id from audit targets (issue 34 item 4). */
class AuditRedactionBeanTest {

    @Test
    void onlyTheWholePairIsReplaced() {
        assertThat(AuditRedactionBean.withoutPair("id=5 userId=alice turnId=t-1", "userId=alice"))
                .isEqualTo("id=5 userId=(erased) turnId=t-1");
        assertThat(AuditRedactionBean.withoutPair("userId=alice", "userId=alice"))
                .isEqualTo("userId=(erased)");
        assertThat(AuditRedactionBean.withoutPair("userId=alice2 chatbotId=x", "userId=alice"))
                .isEqualTo("userId=alice2 chatbotId=x");
        assertThat(AuditRedactionBean.withoutPair("", "userId=alice")).isEmpty();
    }
}

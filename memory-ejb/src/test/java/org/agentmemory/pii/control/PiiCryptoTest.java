package org.agentmemory.pii.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Hasher and cipher, all or nothing (issue 34 item 2, seed 002). */
class PiiCryptoTest {

    static final String PEPPER = "test-pepper-0123456789";
    static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    static final String NEW_KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    @Test
    void exactlyOneOfPepperAndKeyFailsNamingBoth() {
        assertThatThrownBy(() -> PiiCrypto.of(PEPPER, null, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("memory.pii.pepper")
                .hasMessageContaining("memory.pii.key")
                .hasMessageContaining("only memory.pii.pepper is set");
        assertThatThrownBy(() -> PiiCrypto.of(" ", KEY, null))
                .hasMessageContaining("memory.pii.pepper")
                .hasMessageContaining("only memory.pii.key is set");
        assertThatThrownBy(() -> PiiCrypto.of(null, null, KEY)).hasMessageContaining("memory.pii.old-key");
        assertThatThrownBy(() -> PiiCrypto.of(PEPPER, "bm90LWEta2V5", null)).hasMessageContaining("16, 24 or 32");
        assertThatThrownBy(() -> PiiCrypto.of("short", KEY, null)).hasMessageContaining("at least 16");
    }

    @Test
    void neitherStoresInClear() {
        PiiCrypto plain = PiiCrypto.of(null, "", null);
        assertThat(plain.encrypted()).isFalse();
        assertThat(plain.hash("thread-1")).isEqualTo("thread-1");
        assertThat(plain.encrypt("Ann", "row")).isEqualTo("Ann");
        assertThat(plain.currentKeyId()).isEqualTo(PiiCrypto.PLAIN);
    }

    @Test
    void hashesWithAPepperNotPlainSha256() throws Exception {
        PiiCrypto crypto = PiiCrypto.of(PEPPER, KEY, null);
        String plainSha = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest("thread-1".getBytes(StandardCharsets.UTF_8)));
        assertThat(crypto.hash("thread-1")).hasSize(64).isNotEqualTo(plainSha).isEqualTo(crypto.hash("thread-1"));
        assertThat(PiiCrypto.of(PEPPER + "x", KEY, null).hash("thread-1")).isNotEqualTo(crypto.hash("thread-1"));
    }

    @Test
    void encryptsWithAFreshNonceBoundToTheRow() {
        PiiCrypto crypto = PiiCrypto.of(PEPPER, KEY, null);
        String a = crypto.encrypt("ann@example.com", "row-1");
        String b = crypto.encrypt("ann@example.com", "row-1");
        assertThat(a).isNotEqualTo(b).doesNotContain("ann");
        assertThat(crypto.decrypt(crypto.currentKeyId(), a, "row-1")).isEqualTo("ann@example.com");
        assertThatThrownBy(() -> crypto.decrypt(crypto.currentKeyId(), a, "row-2"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theOldKeyStillDecryptsDuringARotation() {
        PiiCrypto before = PiiCrypto.of(PEPPER, KEY, null);
        String sealed = before.encrypt("ann@example.com", "row");
        PiiCrypto rotated = PiiCrypto.of(PEPPER, NEW_KEY, KEY);
        assertThat(rotated.currentKeyId()).isNotEqualTo(before.currentKeyId());
        assertThat(rotated.decrypt(before.currentKeyId(), sealed, "row")).isEqualTo("ann@example.com");
        assertThatThrownBy(() -> PiiCrypto.of(PEPPER, NEW_KEY, null).decrypt(before.currentKeyId(), sealed, "row"))
                .hasMessageContaining("memory.pii.old-key");
    }
}

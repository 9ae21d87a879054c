package org.agentmemory.pii.control;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.agentmemory.api.config.MemorySettings;

/**
 * How the durable PII store protects what it writes (issue 34 item 2, seed 002 "hasher and cipher, all or nothing";
 * decision 0014): keys (thread and message ids) hashed with HMAC-SHA256 under a pepper, values encrypted with AES-GCM
 * (96-bit random nonce, 128-bit tag, the row's identity as associated data) under the current key, with an optional
 * old key that still decrypts during a rotation. {@link #plain()} stores both in clear. JDK crypto only; immutable and
 * thread-safe.
 */
public final class PiiCrypto {

    /** The key id of rows stored in clear. */
    public static final String PLAIN = "plain";

    private static final String HMAC = "HmacSHA256";
    private static final String AES = "AES/GCM/NoPadding";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int MIN_PEPPER = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] pepper;
    private final String currentId;
    private final Map<String, SecretKeySpec> keys;

    private PiiCrypto(byte[] pepper, String currentId, Map<String, SecretKeySpec> keys) {
        this.pepper = pepper;
        this.currentId = currentId;
        this.keys = keys;
    }

    /** @return a crypto that stores keys and values in clear */
    public static PiiCrypto plain() {
        return new PiiCrypto(null, PLAIN, Map.of());
    }

    /**
     * Both or neither (seed 002): a pepper without a key, or a key without a pepper, is refused.
     *
     * @param pepper the HMAC pepper ({@link MemorySettings#PII_PEPPER}), at least 16 characters, or {@code null}
     * @param key    the AES key ({@link MemorySettings#PII_KEY}), Base64 of 16, 24 or 32 bytes, or {@code null}
     * @param oldKey the previous AES key ({@link MemorySettings#PII_OLD_KEY}) or {@code null}; only with a key
     * @return the crypto; {@link #plain()} when neither is set
     * @throws IllegalStateException when exactly one of pepper and key is set, or a value is malformed; the message
     *                               names the keys and the fix
     */
    public static PiiCrypto of(String pepper, String key, String oldKey) {
        boolean hasPepper = present(pepper);
        boolean hasKey = present(key);
        if (hasPepper != hasKey) {
            String set = hasPepper ? MemorySettings.PII_PEPPER : MemorySettings.PII_KEY;
            String missing = hasPepper ? MemorySettings.PII_KEY : MemorySettings.PII_PEPPER;
            throw new IllegalStateException(MemorySettings.PII_PEPPER + " and " + MemorySettings.PII_KEY
                    + " must be set together (both: PII keys hashed and values encrypted; neither: stored in clear),"
                    + " but only " + set + " is set. Set " + missing + " as well, or remove " + set + ".");
        }
        if (!hasPepper) {
            if (present(oldKey)) {
                throw new IllegalStateException(MemorySettings.PII_OLD_KEY + " is set without "
                        + MemorySettings.PII_PEPPER + " and " + MemorySettings.PII_KEY
                        + "; an old key only makes sense during a rotation to a new key.");
            }
            return plain();
        }
        if (pepper.strip().length() < MIN_PEPPER) {
            throw new IllegalStateException(
                    MemorySettings.PII_PEPPER + " has " + pepper.strip().length() + " characters; it needs at least "
                            + MIN_PEPPER + " (a long random secret).");
        }
        Map<String, SecretKeySpec> keys = new LinkedHashMap<>();
        SecretKeySpec current = aesKey(MemorySettings.PII_KEY, key);
        String currentId = keyId(current);
        keys.put(currentId, current);
        if (present(oldKey)) {
            SecretKeySpec old = aesKey(MemorySettings.PII_OLD_KEY, oldKey);
            keys.putIfAbsent(keyId(old), old);
        }
        return new PiiCrypto(pepper.strip().getBytes(StandardCharsets.UTF_8), currentId, Map.copyOf(keys));
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }

    private static SecretKeySpec aesKey(String name, String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    name + " is not Base64; it must be the Base64 of 16, 24 or 32 random bytes"
                            + " (e.g. openssl rand -base64 32).",
                    e);
        }
        if (bytes.length != 16 && bytes.length != 24 && bytes.length != 32) {
            throw new IllegalStateException(name + " decodes to " + bytes.length
                    + " bytes; an AES key has 16, 24 or 32 (e.g. openssl rand -base64 32).");
        }
        return new SecretKeySpec(bytes, "AES");
    }

    /** A short public id of a key: the first 6 bytes of SHA-256 over a label and the key, hex. */
    private static String keyId(SecretKeySpec key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update("agent-memory pii key id:".getBytes(StandardCharsets.UTF_8));
            return "k" + HexFormat.of().formatHex(sha.digest(key.getEncoded()), 0, 6);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return whether keys are hashed and values encrypted */
    public boolean encrypted() {
        return pepper != null;
    }

    /** @return the id of the key new rows are written under, {@link #PLAIN} in clear */
    public String currentKeyId() {
        return currentId;
    }

    /**
     * @param id a thread or message id
     * @return its HMAC-SHA256 under the pepper, 64 hex characters; the id itself in clear
     */
    public String hash(String id) {
        if (pepper == null) {
            return id;
        }
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(pepper, HMAC));
            return HexFormat.of().formatHex(mac.doFinal(id.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available: " + e.getMessage(), e);
        }
    }

    /**
     * @param tenantId a tenant
     * @param userId   a user
     * @return the key an erasure of the user is recorded under: HMAC-SHA256 of tenant and user under the pepper, or
     *         their SHA-256 without one (never the user id), 64 hex characters
     */
    public String userKey(String tenantId, String userId) {
        byte[] both = (tenantId + '\n' + userId).getBytes(StandardCharsets.UTF_8);
        try {
            if (pepper == null) {
                return HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(both));
            }
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(pepper, HMAC));
            return HexFormat.of().formatHex(mac.doFinal(both));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 or HMAC-SHA256 is not available: " + e.getMessage(), e);
        }
    }

    /**
     * @param plaintext what to store
     * @param row       the row's identity, bound to the ciphertext as associated data
     * @return Base64 of nonce and ciphertext under the current key; {@code plaintext} in clear
     */
    public String encrypt(String plaintext, String row) {
        if (pepper == null) {
            return plaintext;
        }
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance(AES);
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(currentId), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(row.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder()
                    .encodeToString(ByteBuffer.allocate(nonce.length + sealed.length)
                            .put(nonce)
                            .put(sealed)
                            .array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM encryption failed: " + e.getMessage(), e);
        }
    }

    /**
     * @param keyId   the key id stored with the row
     * @param payload what {@link #encrypt} wrote (or the clear text under {@link #PLAIN})
     * @param row     the row's identity given to {@link #encrypt}
     * @return the plaintext
     * @throws IllegalStateException when the key id is neither the current nor the old key, or the payload was altered
     */
    public String decrypt(String keyId, String payload, String row) {
        if (PLAIN.equals(keyId)) {
            return payload;
        }
        SecretKeySpec key = keys.get(keyId);
        if (key == null) {
            throw new IllegalStateException("A PII row is encrypted under key " + keyId
                    + ", which is neither " + MemorySettings.PII_KEY + " nor " + MemorySettings.PII_OLD_KEY
                    + "; configure that key as " + MemorySettings.PII_OLD_KEY + " to read it.");
        }
        byte[] bytes = Base64.getDecoder().decode(payload);
        try {
            Cipher cipher = Cipher.getInstance(AES);
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(row.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("A PII row does not decrypt under key " + keyId + ": " + e, e);
        }
    }
}

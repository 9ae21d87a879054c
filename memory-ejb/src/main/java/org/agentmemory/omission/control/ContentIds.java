package org.agentmemory.omission.control;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * Content addressing of omitted content (spec §7.1): {@code "om_"} + the 16 lowercase hex digits of
 * BLAKE2b with an 8-byte digest (the parameterized 64-bit output, not a truncated BLAKE2b-512) over the
 * UTF-8 bytes of the content. The same function serves write-time offload and render-time pruning, so ids
 * agree across both paths.
 */
public final class ContentIds {

    /** Prefix of every content id. */
    public static final String PREFIX = "om_";

    private static final Pattern SHAPE = Pattern.compile("om_[0-9a-f]{16}");

    private ContentIds() {}

    /**
     * @param content the content; never {@code null}
     * @return {@code om_} + 16 lowercase hex digits
     */
    public static String contentId(String content) {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        Blake2bDigest digest = new Blake2bDigest(64);
        digest.update(bytes, 0, bytes.length);
        byte[] out = new byte[8];
        digest.doFinal(out, 0);
        return PREFIX + HexFormat.of().formatHex(out);
    }

    /**
     * @param id any string
     * @return whether it has the shape of a content id ({@code om_} + 16 lowercase hex digits)
     */
    public static boolean isContentId(String id) {
        return id != null && SHAPE.matcher(id).matches();
    }
}

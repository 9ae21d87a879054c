package org.agentmemory.conversation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads a JSONL body line by line with a bounded line length, so one huge or malformed line costs an error
 * entry, never the whole import or the server's memory. Lines are UTF-8; CRLF and LF both end a line; a byte
 * order mark before the first line (as some editors save UTF-8) is skipped.
 */
final class JsonlReader {

    /** One line: its 1-based number and either its text or why it could not be read. */
    record Line(long number, String text, String error) {}

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private long lineNumber;

    JsonlReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /** @return the next line, or {@code null} at the end of the body */
    Line next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        boolean tooLong = false;
        boolean sawAny = false;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer, 0, buffer.length);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    if (!sawAny) {
                        return null;
                    }
                    break;
                }
            }
            sawAny = true;
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            int length = position - start;
            if (!tooLong) {
                if (line.size() + length > maxLineBytes) {
                    tooLong = true;
                    line.reset();
                } else {
                    line.write(buffer, start, length);
                }
            }
            if (position < limit) {
                position++; // the '\n'
                break;
            }
        }
        lineNumber++;
        if (tooLong) {
            return new Line(
                    lineNumber,
                    null,
                    "line " + lineNumber + " is longer than " + maxLineBytes
                            + " bytes (memory.import.max-line-bytes); it was skipped");
        }
        byte[] bytes = line.toByteArray();
        int start = lineNumber == 1
                        && bytes.length >= 3
                        && (bytes[0] & 0xFF) == 0xEF
                        && (bytes[1] & 0xFF) == 0xBB
                        && (bytes[2] & 0xFF) == 0xBF
                ? 3
                : 0;
        int end = bytes.length;
        if (end > start && bytes[end - 1] == '\r') {
            end--;
        }
        try {
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, start, end - start))
                    .toString();
            return new Line(lineNumber, text, null);
        } catch (CharacterCodingException e) {
            return new Line(lineNumber, null, "line " + lineNumber + " is not valid UTF-8");
        }
    }
}

package org.agentmemory.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Line splitting of JSONL bodies: line ends, the first line's byte order mark, length and encoding errors. */
class JsonlReaderTest {

    @Test
    void aByteOrderMarkBeforeTheFirstLineIsSkippedAndOnlyThere() throws IOException {
        byte[] body = ("\uFEFF{\"a\":1}\r\n\uFEFF{\"b\":2}\n").getBytes(StandardCharsets.UTF_8);
        List<JsonlReader.Line> lines = read(body, 1024);
        assertThat(lines).extracting(JsonlReader.Line::text).containsExactly("{\"a\":1}", "\uFEFF{\"b\":2}");
        assertThat(lines).extracting(JsonlReader.Line::number).containsExactly(1L, 2L);
    }

    @Test
    void crlfAndLfEndLinesAndBadLinesAreReportedByNumber() throws IOException {
        byte[] good = "{\"a\":1}\r\n".getBytes(StandardCharsets.UTF_8);
        byte[] bad = {(byte) 0xC3, (byte) 0x28, '\n'};
        byte[] last = "0123456789abcdef\n{}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[good.length + bad.length + last.length];
        System.arraycopy(good, 0, body, 0, good.length);
        System.arraycopy(bad, 0, body, good.length, bad.length);
        System.arraycopy(last, 0, body, good.length + bad.length, last.length);
        List<JsonlReader.Line> lines = read(body, 10);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0).text()).isEqualTo("{\"a\":1}");
        assertThat(lines.get(1).error()).isEqualTo("line 2 is not valid UTF-8");
        assertThat(lines.get(2).error()).startsWith("line 3 is longer than 10 bytes");
        assertThat(lines.get(3).text()).isEqualTo("{}");
    }

    private static List<JsonlReader.Line> read(byte[] body, int maxLineBytes) throws IOException {
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(body), maxLineBytes);
        List<JsonlReader.Line> lines = new ArrayList<>();
        for (JsonlReader.Line line = reader.next(); line != null; line = reader.next()) {
            lines.add(line);
        }
        return lines;
    }
}

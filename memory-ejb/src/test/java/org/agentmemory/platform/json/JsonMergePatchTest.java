package org.agentmemory.platform.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RFC 7396 appendix A examples and immutability. */
class JsonMergePatchTest {

    private static String merge(String target, String patch) throws IOException {
        return CanonicalJson.write(
                JsonMergePatch.apply(CanonicalJson.parseObject(target), CanonicalJson.parseObject(patch)));
    }

    @Test
    void rfc7396Examples() throws IOException {
        assertThat(merge("{\"a\":\"b\"}", "{\"a\":\"c\"}")).isEqualTo("{\"a\":\"c\"}");
        assertThat(merge("{\"a\":\"b\"}", "{\"b\":\"c\"}")).isEqualTo("{\"a\":\"b\",\"b\":\"c\"}");
        assertThat(merge("{\"a\":\"b\"}", "{\"a\":null}")).isEqualTo("{}");
        assertThat(merge("{\"a\":\"b\",\"b\":\"c\"}", "{\"a\":null}")).isEqualTo("{\"b\":\"c\"}");
        assertThat(merge("{\"a\":[\"b\"]}", "{\"a\":\"c\"}")).isEqualTo("{\"a\":\"c\"}");
        assertThat(merge("{\"a\":\"c\"}", "{\"a\":[\"b\"]}")).isEqualTo("{\"a\":[\"b\"]}");
        assertThat(merge("{\"a\":{\"b\":\"c\"}}", "{\"a\":{\"b\":\"d\",\"c\":null}}"))
                .isEqualTo("{\"a\":{\"b\":\"d\"}}");
        assertThat(merge("{\"a\":[{\"b\":\"c\"}]}", "{\"a\":[1]}")).isEqualTo("{\"a\":[1]}");
        assertThat(merge("{\"e\":null}", "{\"a\":1}")).isEqualTo("{\"a\":1,\"e\":null}");
        assertThat(merge("{}", "{\"a\":{\"bb\":{\"ccc\":null}}}")).isEqualTo("{\"a\":{\"bb\":{}}}");
    }

    @Test
    void neverMutatesItsInputs() throws IOException {
        Map<String, Object> target = new HashMap<>(CanonicalJson.parseObject("{\"task\":{\"step\":1},\"keep\":true}"));
        Map<String, Object> patch = CanonicalJson.parseObject("{\"task\":{\"step\":2}}");
        String before = CanonicalJson.write(target);
        Map<String, Object> merged = JsonMergePatch.apply(target, patch);
        assertThat(CanonicalJson.write(target)).isEqualTo(before);
        assertThat(CanonicalJson.write(merged)).isEqualTo("{\"keep\":true,\"task\":{\"step\":2}}");
    }
}

package org.agentmemory.platform.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The one deterministic JSON form this service writes where bytes matter (spec §2.2, §2.3, §8.1): compact
 * (no spaces), object keys sorted by code unit order at every depth, non-ASCII characters written raw (not
 * {@code \\u}-escaped), numbers kept exactly as parsed (big decimals, big integers).
 *
 * <p>Java cannot match Python's orjson byte for byte (floats in particular); what matters is that this
 * form is fixed, so it is versioned together with normalization ({@code normVersion}).
 */
public final class CanonicalJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    static {
        MAPPER.getFactory().disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
    }

    private CanonicalJson() {}

    /**
     * Serializes a JSON value (maps, lists, strings, numbers, booleans, {@code null}) canonically.
     *
     * @param value the value; {@code null} gives {@code "null"}
     * @return the canonical text
     */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException("value is not JSON-serializable: " + e.getMessage(), e);
        }
    }

    /**
     * Parses JSON text into plain Java values ({@code Map}, {@code List}, {@code String}, {@code BigDecimal},
     * {@code Integer}/{@code Long}/{@code BigInteger}, {@code Boolean}, {@code null}).
     *
     * @param text JSON text
     * @return the value
     * @throws IOException when the text is not one valid JSON value (duplicate keys included)
     */
    public static Object parse(String text) throws IOException {
        return MAPPER.readValue(text, Object.class);
    }

    /**
     * Parses a JSON object.
     *
     * @param text JSON text of an object
     * @return the object as an insertion-ordered map
     * @throws IOException when the text is not a JSON object
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) throws IOException {
        Object value = parse(text);
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IOException("expected a JSON object but found "
                + (value == null ? "null" : value.getClass().getSimpleName()));
    }

    /** @return the shared mapper configured as above (do not reconfigure it) */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}

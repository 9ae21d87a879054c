package org.agentmemory.rest;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The JSON form of the REST API: camelCase properties named after the record components, enums in lower
 * case ({@code "raw"}, {@code "error"}), instants as ISO-8601 UTC strings with up to microseconds.
 *
 * <p>Reading is strict so that a client's mistake is a 400 naming the field rather than silently stored
 * data: unknown properties, duplicate keys, trailing content, {@code null} for a number, and scalar coercions
 * (a number where a string is expected, {@code "5"} where a number is expected) are all rejected.
 */
public final class RestJson {

    private static final ObjectMapper MAPPER = build();

    private RestJson() {}

    /** @return the shared, fully configured mapper (thread-safe; do not reconfigure) */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Timestamps are ISO-8601 strings only: Jackson would read a number as epoch seconds, and turn absurd ones
     * ({@code 1e300}) silently into 1970.
     */
    static final class StrictInstantDeserializer
            extends com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer<java.time.Instant> {
        private static final long serialVersionUID = 1L;

        StrictInstantDeserializer() {
            super(java.time.Instant.class);
        }

        @Override
        public java.time.Instant deserialize(
                com.fasterxml.jackson.core.JsonParser p, com.fasterxml.jackson.databind.DeserializationContext ctxt)
                throws java.io.IOException {
            if (p.currentToken() != com.fasterxml.jackson.core.JsonToken.VALUE_STRING) {
                return (java.time.Instant) ctxt.handleUnexpectedToken(java.time.Instant.class, p);
            }
            return com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer.INSTANT.deserialize(p, ctxt);
        }
    }

    /** Writes an enum as its name in lower case, whatever the JVM's default locale. */
    @SuppressWarnings("rawtypes")
    static final class LowerCaseEnumSerializer extends com.fasterxml.jackson.databind.ser.std.StdSerializer<Enum> {
        private static final long serialVersionUID = 1L;

        LowerCaseEnumSerializer() {
            super(Enum.class);
        }

        @Override
        public void serialize(
                Enum value,
                com.fasterxml.jackson.core.JsonGenerator gen,
                com.fasterxml.jackson.databind.SerializerProvider provider)
                throws java.io.IOException {
            gen.writeString(name(value));
        }

        /** @return the JSON form of an enum: its name in lower case, whatever the JVM's default locale */
        static String name(Enum<?> value) {
            return value.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static ObjectMapper build() {
        return configure(JsonMapper.builder().addModule(TurnSerializers.module()));
    }

    /**
     * The mapper without the hand-written turn serializers ({@link TurnSerializers}): the form they must write.
     * For tests.
     */
    static ObjectMapper generic() {
        return configure(JsonMapper.builder());
    }

    private static ObjectMapper configure(JsonMapper.Builder builder) {
        JsonMapper mapper = builder.addModule(new JavaTimeModule())
                .addModule(new com.fasterxml.jackson.module.blackbird.BlackbirdModule())
                .addModule(new com.fasterxml.jackson.databind.module.SimpleModule("strict-instants")
                        .addDeserializer(java.time.Instant.class, new StrictInstantDeserializer()))
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
                // Enums are written in lower case by LowerCaseEnumSerializer, not EnumFeature.WRITE_ENUMS_TO_LOWERCASE:
                // Jackson's feature lower-cases in the JVM's default locale, which under Turkish wrote
                // "summarızed" (dotless ı), a value the API then refuses to read back.
                .addModule(new com.fasterxml.jackson.databind.module.SimpleModule("lower-case-enums")
                        .addSerializer(Enum.class, new LowerCaseEnumSerializer()))
                .build();
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Integer)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Float)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Boolean)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return mapper;
    }
}

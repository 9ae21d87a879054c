package org.agentmemory.rest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;

/**
 * Writes turns and tool invocations field by field on Jackson's generator, in the form the mapper derives from the
 * records (component order, every component present, {@code null} written as {@code null}, enums in lower case);
 * maps and instants still go through the mapper's own serializers. A long history is mostly turns, and the generic
 * record serializer's per-property dispatch showed in the profile of {@code GET /conversations/{id}}.
 * {@code TurnSerializersTest} checks that the output equals the generic serializer's for turns with every
 * component set and with none.
 */
final class TurnSerializers {

    private TurnSerializers() {}

    /** @return a module with the serializers of {@link TurnRecord}, {@link ToolInvocationRecord} and {@link TokenCount} */
    static SimpleModule module() {
        return new SimpleModule("turn-serializers")
                .addSerializer(TurnRecord.class, new Adapter<>(TurnRecord.class, TurnSerializers::turn))
                .addSerializer(
                        ToolInvocationRecord.class,
                        new Adapter<>(ToolInvocationRecord.class, TurnSerializers::invocation))
                .addSerializer(TokenCount.class, new Adapter<>(TokenCount.class, TurnSerializers::tokenCount));
    }

    /** Writes one non-null value as a JSON value. */
    @FunctionalInterface
    private interface Writer<T> {
        void write(T value, JsonGenerator gen, SerializerProvider provider) throws IOException;
    }

    /** A Jackson serializer that hands the value to a {@link Writer}. */
    private static final class Adapter<T> extends StdSerializer<T> {
        private static final long serialVersionUID = 1L;
        private final transient Writer<T> writer;

        Adapter(Class<T> type, Writer<T> writer) {
            super(type);
            this.writer = writer;
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            writer.write(value, gen, provider);
        }
    }

    private static void turn(TurnRecord t, JsonGenerator gen, SerializerProvider provider) throws IOException {
        gen.writeStartObject(t);
        string(gen, "turnId", t.turnId());
        number(gen, "sequence", t.sequence());
        string(gen, "userId", t.userId());
        string(gen, "userMessage", t.userMessage());
        string(gen, "assistantResponse", t.assistantResponse());
        string(gen, "contextUsed", t.contextUsed());
        array(gen, provider, "toolsUsed", t.toolsUsed(), (tool, g, p) -> g.writeString(tool));
        value(gen, provider, "timestamp", t.timestamp());
        metadata(gen, provider, "metadata", t.metadata());
        string(gen, "chatbotId", t.chatbotId());
        array(gen, provider, "toolInvocations", t.toolInvocations(), TurnSerializers::invocation);
        string(gen, "error", t.error());
        gen.writeFieldName("tokenCount");
        if (t.tokenCount() == null) {
            gen.writeNull();
        } else {
            tokenCount(t.tokenCount(), gen, provider);
        }
        lowerCaseEnum(gen, "state", t.state());
        number(gen, "schemaVersion", t.schemaVersion());
        string(gen, "normVersion", t.normVersion());
        gen.writeEndObject();
    }

    private static void invocation(ToolInvocationRecord i, JsonGenerator gen, SerializerProvider provider)
            throws IOException {
        gen.writeStartObject(i);
        string(gen, "toolName", i.toolName());
        metadata(gen, provider, "input", i.input());
        string(gen, "output", i.output());
        lowerCaseEnum(gen, "status", i.status());
        string(gen, "error", i.error());
        number(gen, "elapsedMs", i.elapsedMs());
        number(gen, "outputChars", i.outputChars());
        metadata(gen, provider, "omitted", i.omitted());
        string(gen, "wmKey", i.wmKey());
        gen.writeEndObject();
    }

    private static void tokenCount(TokenCount c, JsonGenerator gen, SerializerProvider provider) throws IOException {
        gen.writeStartObject(c);
        gen.writeNumberField("user", c.user());
        gen.writeNumberField("assistant", c.assistant());
        gen.writeNumberField("tools", c.tools());
        gen.writeNumberField("total", c.total());
        string(gen, "tokenizer", c.tokenizer());
        gen.writeEndObject();
    }

    /** A list field whose elements may be {@code null} (written as {@code null}). */
    private static <T> void array(
            JsonGenerator gen, SerializerProvider provider, String name, List<T> values, Writer<T> element)
            throws IOException {
        gen.writeArrayFieldStart(name);
        for (T v : values) {
            if (v == null) {
                gen.writeNull();
            } else {
                element.write(v, gen, provider);
            }
        }
        gen.writeEndArray();
    }

    private static void string(JsonGenerator gen, String name, String value) throws IOException {
        if (value == null) {
            gen.writeNullField(name);
        } else {
            gen.writeStringField(name, value);
        }
    }

    private static void value(JsonGenerator gen, SerializerProvider provider, String name, Object value)
            throws IOException {
        gen.writeFieldName(name);
        if (value == null) {
            gen.writeNull();
        } else {
            provider.defaultSerializeValue(value, gen);
        }
    }

    private static void lowerCaseEnum(JsonGenerator gen, String name, Enum<?> value) throws IOException {
        if (value == null) {
            gen.writeNullField(name);
        } else {
            gen.writeStringField(name, RestJson.LowerCaseEnumSerializer.name(value));
        }
    }

    private static void number(JsonGenerator gen, String name, Number value) throws IOException {
        if (value == null) {
            gen.writeNullField(name);
        } else if (value instanceof Long l) {
            gen.writeNumberField(name, l);
        } else {
            gen.writeNumberField(name, value.intValue());
        }
    }

    /** An empty map is written directly (most turns' metadata); others by the mapper's map serializer. */
    private static void metadata(JsonGenerator gen, SerializerProvider provider, String name, Map<String, ?> map)
            throws IOException {
        if (map.isEmpty()) {
            gen.writeFieldName(name);
            gen.writeStartObject();
            gen.writeEndObject();
        } else {
            value(gen, provider, name, map);
        }
    }
}

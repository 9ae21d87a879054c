package org.agentmemory.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The JSON provider keeps one reader and writer per body class and ignores the resource methods' annotations
 * (see {@link JsonProvider}); that is only right while no resource uses Jackson's annotations, which this test
 * guards.
 */
class JsonProviderTest {

    record Item(String name, int count) {}

    @Test
    void noResourceMethodOrParameterCarriesAJacksonAnnotation() throws Exception {
        List<String> found = new ArrayList<>();
        int resources = 0;
        for (Class<?> type : compiledClasses()) {
            if (!isResource(type)) {
                continue;
            }
            resources++;
            for (Method method : type.getDeclaredMethods()) {
                for (Annotation a : method.getAnnotations()) {
                    if (isJackson(a)) {
                        found.add(type.getName() + "." + method.getName() + ": @"
                                + a.annotationType().getName());
                    }
                }
                for (Annotation[] parameter : method.getParameterAnnotations()) {
                    for (Annotation a : parameter) {
                        if (isJackson(a)) {
                            found.add(type.getName() + "." + method.getName() + " parameter: @"
                                    + a.annotationType().getName());
                        }
                    }
                }
            }
        }
        assertThat(resources).as("resource classes found under target/classes").isGreaterThan(5);
        assertThat(found).as("Jackson annotations JsonProvider would ignore").isEmpty();
    }

    @Test
    void genericBodiesAreReadAndWrittenWithTheirElementType() throws Exception {
        JsonProvider provider = new JsonProvider();
        Type listOfItems = JsonProviderTest.class.getDeclaredMethod("items").getGenericReturnType();
        @SuppressWarnings({"unchecked", "rawtypes"})
        Class<Object> listClass = (Class) List.class;
        for (int round = 0; round < 2; round++) {
            Object read = provider.readFrom(
                    listClass,
                    listOfItems,
                    new Annotation[0],
                    MediaType.APPLICATION_JSON_TYPE,
                    new MultivaluedHashMap<>(),
                    new ByteArrayInputStream("[{\"name\":\"a\",\"count\":2}]".getBytes(StandardCharsets.UTF_8)));
            assertThat(read).isEqualTo(List.of(new Item("a", 2)));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            provider.writeTo(
                    List.of(new Item("b", 3)),
                    List.class,
                    listOfItems,
                    new Annotation[0],
                    MediaType.APPLICATION_JSON_TYPE,
                    new MultivaluedHashMap<>(),
                    out);
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("[{\"name\":\"b\",\"count\":3}]");
        }
    }

    /** Only its generic return type is used. */
    static List<Item> items() {
        return List.of();
    }

    private static boolean isJackson(Annotation a) {
        return a.annotationType().getName().startsWith("com.fasterxml.jackson.");
    }

    private static boolean isResource(Class<?> type) {
        if (type.isAnnotationPresent(jakarta.ws.rs.Path.class)) {
            return true;
        }
        return Stream.of(type.getDeclaredMethods()).anyMatch(m -> m.isAnnotationPresent(jakarta.ws.rs.Path.class));
    }

    private static List<Class<?>> compiledClasses() throws Exception {
        Path root = Path.of("target/classes");
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f ->
                            f.toString().endsWith(".class") && !f.toString().contains("$"))
                    .toList()) {
                String name = root.relativize(file)
                        .toString()
                        .replace(file.getFileSystem().getSeparator(), ".")
                        .replaceAll("\\.class$", "");
                classes.add(Class.forName(name, false, JsonProviderTest.class.getClassLoader()));
            }
        }
        return classes;
    }
}

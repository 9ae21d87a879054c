package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeTokenizerLibraryTest {

    private static final ClassLoader LOADER = NativeTokenizerLibraryTest.class.getClassLoader();

    @TempDir
    Path temp;

    private static Properties linux() {
        Properties p = new Properties();
        p.setProperty("os.name", "Linux");
        p.setProperty("os.arch", "amd64");
        return p;
    }

    private static long resourceSize() throws IOException {
        try (InputStream in =
                LOADER.getResourceAsStream("native/lib/linux-x86_64/cpu/" + System.mapLibraryName("tokenizers"))) {
            assertThat(in).as("DJL's tokenizer jar on the test class path").isNotNull();
            return in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    @Test
    void copiesTheJarsLibraryIntoAFreshDirectoryAndNamesItForDjl() throws IOException {
        Properties props = linux();
        Path library = NativeTokenizerLibrary.prepare(LOADER, null, props, temp);
        assertThat(library).isNotNull().startsWith(temp);
        assertThat(library.getFileName().toString()).isEqualTo(System.mapLibraryName("tokenizers"));
        assertThat(Files.size(library)).isEqualTo(resourceSize()).isGreaterThan(1_000_000);
        assertThat(props.getProperty(NativeTokenizerLibrary.PATH_PROPERTY)).isEqualTo(library.toString());
        assertThat(props.getProperty(NativeTokenizerLibrary.OWNED_PROPERTY)).isEqualTo(library.toString());
    }

    @Test
    void aRedeployedApplicationGetsItsOwnCopyInsteadOfTheOneAnotherClassLoaderHolds() {
        Properties props = linux();
        Path first = NativeTokenizerLibrary.prepare(LOADER, null, props, temp);
        // The JVM's system properties outlive a deployment: the next one finds the value the first one set.
        Path second = NativeTokenizerLibrary.prepare(LOADER, null, props, temp);
        assertThat(second).isNotNull().isNotEqualTo(first);
        assertThat(second.getParent()).isNotEqualTo(first.getParent());
        assertThat(props.getProperty(NativeTokenizerLibrary.PATH_PROPERTY)).isEqualTo(second.toString());
        assertThat(first).exists();
    }

    @Test
    void anOperatorsOwnLibraryPathIsLeftAlone() {
        Properties props = linux();
        props.setProperty(NativeTokenizerLibrary.PATH_PROPERTY, "/opt/djl/lib");
        assertThat(NativeTokenizerLibrary.prepare(LOADER, null, props, temp)).isNull();
        assertThat(props.getProperty(NativeTokenizerLibrary.PATH_PROPERTY)).isEqualTo("/opt/djl/lib");

        Properties fromEnvironment = linux();
        assertThat(NativeTokenizerLibrary.prepare(LOADER, "/opt/djl/lib", fromEnvironment, temp))
                .isNull();
        assertThat(fromEnvironment.getProperty(NativeTokenizerLibrary.PATH_PROPERTY))
                .isNull();
    }

    @Test
    void platformsWithoutALibraryInTheJarAreLeftToDjl() {
        Properties props = new Properties();
        props.setProperty("os.name", "SunOS");
        props.setProperty("os.arch", "sparcv9");
        assertThat(NativeTokenizerLibrary.prepare(LOADER, null, props, temp)).isNull();
        assertThat(props.getProperty(NativeTokenizerLibrary.PATH_PROPERTY)).isNull();
    }

    @Test
    void mapsOperatingSystemsAndArchitecturesToTheJarsDirectories() {
        assertThat(NativeTokenizerLibrary.platform("Linux", "amd64")).isEqualTo("linux-x86_64");
        assertThat(NativeTokenizerLibrary.platform("Linux", "aarch64")).isEqualTo("linux-aarch64");
        assertThat(NativeTokenizerLibrary.platform("Mac OS X", "aarch64")).isEqualTo("osx-aarch64");
        assertThat(NativeTokenizerLibrary.platform("Windows 11", "amd64")).isEqualTo("win-x86_64");
        assertThat(NativeTokenizerLibrary.platform("Linux", "ppc64le")).isNull();
        assertThat(NativeTokenizerLibrary.platform("FreeBSD", "amd64")).isNull();
    }
}

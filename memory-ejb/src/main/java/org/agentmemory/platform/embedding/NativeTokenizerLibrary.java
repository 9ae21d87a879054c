package org.agentmemory.platform.embedding;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * Gives each class loader that embeds (each deployment of the EAR) its own copy of the native library of DJL's
 * Hugging Face tokenizer, which the embedding models and the word-piece counter use.
 *
 * <p>Why: the JVM loads a native library file into one class loader only. DJL extracts the library to one fixed
 * path ({@code ~/.djl.ai/tokenizers/<version>/}), so after the EAR is redeployed without restarting the server
 * (WildFly's {@code deploy --force}, the deployment scanner) the new deployment fails with
 * {@code UnsatisfiedLinkError: … already loaded in another classloader}: every message and episode was then stored
 * without a vector, and vector recall found nothing new, until the server restarted. With a copy per class loader,
 * in a fresh temporary directory and named through DJL's {@code RUST_LIBRARY_PATH} override, each deployment loads its
 * own file. The copy of an undeployed deployment stays mapped until its class loader is collected; the files are
 * deleted when the JVM exits.
 *
 * <p>An operator's own {@code RUST_LIBRARY_PATH} (environment variable or system property) is left alone. No
 * container types; the system properties are passed in so that tests need not touch the JVM's.
 */
final class NativeTokenizerLibrary {

    /** DJL's override of where its tokenizer library is loaded from (environment or system property). */
    static final String PATH_PROPERTY = "RUST_LIBRARY_PATH";
    /** The value this class gave {@link #PATH_PROPERTY}, so that a later deployment knows it may replace it. */
    static final String OWNED_PROPERTY = "org.agentmemory.tokenizers.library";

    private static Path prepared;

    private NativeTokenizerLibrary() {}

    /**
     * Prepares this class loader's copy once (later calls return the same copy); must run before DJL's
     * tokenizer classes initialise.
     *
     * @return the copy now named by {@code RUST_LIBRARY_PATH}, or {@code null} when the operator set it or the
     *         jar has no library for this platform (DJL then behaves as without this class)
     */
    static synchronized Path prepare() {
        if (prepared == null) {
            try {
                prepared = prepare(
                        NativeTokenizerLibrary.class.getClassLoader(),
                        System.getenv(PATH_PROPERTY),
                        System.getProperties(),
                        Path.of(System.getProperty("java.io.tmpdir")));
            } catch (UncheckedIOException e) {
                // DJL then tries its own shared path: right on the first deployment, wrong only after a redeploy.
                java.util.logging.Logger.getLogger(NativeTokenizerLibrary.class.getName())
                        .log(java.util.logging.Level.WARNING, "Could not copy the tokenizer's native library", e);
            }
        }
        return prepared;
    }

    /**
     * @param loader     where the tokenizer jar's resources are found
     * @param envValue   the environment's {@code RUST_LIBRARY_PATH}, or {@code null}
     * @param properties the system properties to read and set
     * @param tempRoot   where the copy's directory is created
     * @return the copy (in a new directory), or {@code null} when nothing was done (see {@link #prepare()})
     * @throws UncheckedIOException when the copy cannot be written
     */
    static Path prepare(ClassLoader loader, String envValue, Properties properties, Path tempRoot) {
        if (envValue != null) {
            return null;
        }
        String current = properties.getProperty(PATH_PROPERTY);
        if (current != null && !current.equals(properties.getProperty(OWNED_PROPERTY))) {
            return null;
        }
        String platform = platform(properties.getProperty("os.name", ""), properties.getProperty("os.arch", ""));
        if (platform == null) {
            return null;
        }
        String file = System.mapLibraryName("tokenizers");
        try (InputStream library = loader.getResourceAsStream("native/lib/" + platform + "/cpu/" + file)) {
            if (library == null) {
                return null;
            }
            Path dir = Files.createTempDirectory(tempRoot, "agent-memory-tokenizers-");
            Path copy = dir.resolve(file);
            Files.copy(library, copy);
            // Deleted in reverse order of registration: the file, then its directory.
            dir.toFile().deleteOnExit();
            copy.toFile().deleteOnExit();
            // The file itself, not its directory: DJL 0.36 resolves a directory through the CUDA architecture, which
            // is null on a CPU-only machine (NullPointerException).
            properties.setProperty(PATH_PROPERTY, copy.toString());
            properties.setProperty(OWNED_PROPERTY, copy.toString());
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the platform directory of DJL's tokenizer jar ({@code linux-x86_64}, {@code osx-aarch64}, …), or
     *         {@code null} for an operating system or architecture it has no library for
     */
    static String platform(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String prefix = os.startsWith("linux")
                ? "linux"
                : os.startsWith("mac") || os.startsWith("darwin") ? "osx" : os.startsWith("windows") ? "win" : null;
        String arch = switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> null;
        };
        return prefix == null || arch == null ? null : prefix + "-" + arch;
    }
}

package org.agentmemory.security;

import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** PEM text of keys (JDK crypto only): {@code PUBLIC KEY} (X.509) and {@code PRIVATE KEY} (PKCS #8), RSA or EC. */
public final class Pem {

    private Pem() {}

    /**
     * @param key a public or private key
     * @return its PEM text, lines of 64 characters
     */
    public static String write(Key key) {
        String label = key instanceof PrivateKey ? "PRIVATE KEY" : "PUBLIC KEY";
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded())
                + "\n-----END " + label + "-----\n";
    }

    /**
     * @param pem the PEM text of an RSA or EC public key
     * @return the key
     * @throws GeneralSecurityException when the text holds no such key
     */
    public static PublicKey publicKey(String pem) throws GeneralSecurityException {
        byte[] der = der(pem, "PUBLIC KEY");
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException notRsa) {
            return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
        }
    }

    /**
     * @param pem the PEM text of an RSA or EC private key (PKCS #8)
     * @return the key
     * @throws GeneralSecurityException when the text holds no such key
     */
    public static PrivateKey privateKey(String pem) throws GeneralSecurityException {
        byte[] der = der(pem, "PRIVATE KEY");
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException notRsa) {
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
        }
    }

    private static byte[] der(String pem, String label) throws GeneralSecurityException {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int from = pem.indexOf(begin);
        int to = pem.indexOf(end);
        if (from < 0 || to < from) {
            throw new GeneralSecurityException("no " + label + " block in the PEM text");
        }
        try {
            return Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("the " + label + " block is not base64", e);
        }
    }
}

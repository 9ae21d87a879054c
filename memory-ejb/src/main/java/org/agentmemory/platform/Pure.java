package org.agentmemory.platform;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a package (on its {@code package-info.java}) whose classes are pure logic: no container, persistence, JDBC
 * or REST types, so they are unit-tested in milliseconds without a database or a server. The architecture tests
 * ({@code ArchitectureTest}) fail the build when a class of such a package imports {@code jakarta.persistence},
 * {@code jakarta.ejb}, {@code jakarta.ws.rs}, {@code jakarta.enterprise}, {@code jakarta.transaction} or
 * {@code java.sql}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PACKAGE)
public @interface Pure {}

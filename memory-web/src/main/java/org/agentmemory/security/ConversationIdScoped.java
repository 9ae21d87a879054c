package org.agentmemory.security;

import jakarta.ws.rs.NameBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks resources whose {@code {id}} path parameter is a conversation id: {@link ConversationScopeFilter} answers 404
 * for a conversation outside the token's user or agent scope before the operation runs.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ConversationIdScoped {}

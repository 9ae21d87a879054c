package org.agentmemory.rest;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Refuses a query parameter the operation does not take: 400 naming it (rule {@code unknown-parameter}) and the
 * parameters the operation does take. Without this a misspelt or unsupported parameter is silently ignored, so a
 * caller who sends {@code offset=100} believes it pages when it does not (issue 31 item 5).
 *
 * <p>The names come from the matched resource method's {@link QueryParam} parameters and the {@link QueryParam}
 * fields of its {@link BeanParam} parameters, read once per method.
 */
@Provider
public class UnknownParameterFilter implements ContainerRequestFilter {

    private static final Map<Method, Set<String>> ACCEPTED = new ConcurrentHashMap<>();

    @Context
    ResourceInfo resource;

    @Context
    UriInfo uri;

    @Override
    public void filter(ContainerRequestContext request) {
        Method method = resource.getResourceMethod();
        Class<?> type = resource.getResourceClass();
        if (method == null || type == null) {
            return;
        }
        Set<String> accepted = ACCEPTED.computeIfAbsent(method, m -> accepted(type, m));
        String query = uri.getRequestUri().getRawQuery();
        if (query == null || query.isEmpty()) {
            return;
        }
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String raw = equals < 0 ? pair : pair.substring(0, equals);
            if (!accepted.contains(decoded(raw))) {
                // The name as the caller wrote it (a%00b, %FF%FE), never its decoded control characters.
                String shown = raw.length() > 60 ? raw.substring(0, 60) + "…" : raw;
                request.abortWith(Problems.badRequest(
                        shown,
                        "unknown-parameter",
                        "The query parameter '" + shown + "' is not one this operation takes"
                                + (accepted.isEmpty()
                                        ? " (it takes none)"
                                        : "; it takes " + String.join(", ", accepted))
                                + ". Remove it: an ignored parameter would look as if it worked.",
                        uri));
                return;
            }
        }
    }

    /** @return a query parameter name decoded, or the raw name when it does not decode */
    private static String decoded(String raw) {
        try {
            return java.net.URLDecoder.decode(raw, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return raw;
        }
    }

    /**
     * The query parameters of a resource method, searched in the resource class and its superclasses: the class
     * the container calls may be a generated subclass whose overriding method carries no annotations.
     */
    static Set<String> accepted(Class<?> resourceClass, Method method) {
        Set<String> names = new TreeSet<>();
        for (Method declared : ResourceMethods.declarations(resourceClass, method)) {
            Annotation[][] annotations = declared.getParameterAnnotations();
            Class<?>[] types = declared.getParameterTypes();
            for (int i = 0; i < annotations.length; i++) {
                for (Annotation a : annotations[i]) {
                    if (a instanceof QueryParam q) {
                        names.add(q.value());
                    } else if (a instanceof BeanParam) {
                        beanParams(types[i], names);
                    }
                }
            }
        }
        return java.util.Collections.unmodifiableSet(names);
    }

    private static void beanParams(Class<?> bean, Set<String> names) {
        for (Class<?> k : ResourceMethods.classes(bean)) {
            for (Field field : k.getDeclaredFields()) {
                QueryParam q = field.getAnnotation(QueryParam.class);
                if (q != null) {
                    names.add(q.value());
                }
            }
            for (Method setter : k.getDeclaredMethods()) {
                QueryParam q = setter.getAnnotation(QueryParam.class);
                if (q != null) {
                    names.add(q.value());
                }
            }
        }
    }
}

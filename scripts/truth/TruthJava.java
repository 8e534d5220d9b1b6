// Java facts for callers_truth.py, from javac's own API (JavacTask + Trees).
//
// All .java files of the checkout (module-info.java, build output and hidden folders left out)
// are parsed and attributed in one JavacTask, with the jars in TRUTH_JAVA_CLASSPATH (if any)
// on the class path. Missing dependencies make javac report errors; attribution goes on
// (-XDshould-stop.ifError=FLOW) and calls javac cannot resolve are counted as unresolved.
// Every MethodInvocationTree / NewClassTree is resolved with Trees.getElement, and the
// element's declaration is found with Trees.getPath: if it is in the checkout, the call is
// kept. Overloads of one method name in one type are one definition (the question a
// developer asks is "who calls Type.name?"); all constructors of a class are one definition,
// placed on the class name.
//
// Usage: java --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
//             --add-exports jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED TruthJava.java CHECKOUT
import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;

import javax.lang.model.element.*;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.*;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class TruthJava {
    static Path root;
    static Trees trees;
    static SourcePositions sp;

    static final class Def {
        int id;
        String path, name, qualname, kind, container, pkg;
        long line;
        List<String> overloads = new ArrayList<>();
        List<String> implementations = new ArrayList<>();
    }

    static final List<Def> defs = new ArrayList<>();
    static final Map<String, Def> defByKey = new HashMap<>(); // "TypeQName#name" or "TypeQName#<init>"
    static final TreeMap<String, String> refs = new TreeMap<>();

    static String esc(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                default:
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c)); else b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static String rel(CompilationUnitTree cu) {
        return root.relativize(Paths.get(cu.getSourceFile().toUri())).toString().replace('\\', '/');
    }

    static long line(CompilationUnitTree cu, long pos) {
        return cu.getLineMap().getLineNumber(pos);
    }

    static long col(CompilationUnitTree cu, long pos) {
        return cu.getLineMap().getColumnNumber(pos);
    }

    /** Simple names of the type and its enclosing types: Outer.Inner */
    static String typeChain(Element e) {
        Deque<String> parts = new ArrayDeque<>();
        while (e != null && (e.getKind().isClass() || e.getKind().isInterface())) {
            parts.addFirst(e.getSimpleName().toString());
            e = e.getEnclosingElement();
        }
        return String.join(".", parts);
    }

    static String typeKey(TypeElement t) {
        return t.getQualifiedName().toString().isEmpty() ? t.toString() : t.getQualifiedName().toString();
    }

    /** Position of a class's name: after `class|interface|enum|record|@interface`. */
    static long classNamePos(CompilationUnitTree cu, ClassTree ct, String src) {
        long start = sp.getStartPosition(cu, ct);
        Pattern p = Pattern.compile("\\b(class|interface|enum|record)\\s+(" + Pattern.quote(ct.getSimpleName().toString()) + ")\\b");
        Matcher m = p.matcher(src);
        if (start >= 0 && m.find((int) start)) return m.start(2);
        return start;
    }

    /** Position of the name of the method or constructor (javac keeps it as the tree's pos). */
    static long methodNamePos(MethodTree mt, String src, String name) {
        long pos = ((JCTree) mt).pos;
        if (pos >= 0 && src.startsWith(name, (int) pos)) return pos;
        return pos;
    }

    /** Position of the name token a call's callee ends with. */
    static long calleeNamePos(CompilationUnitTree cu, ExpressionTree t, String src) {
        while (t instanceof ParenthesizedTree) t = ((ParenthesizedTree) t).getExpression();
        if (t instanceof ParameterizedTypeTree) t = (ExpressionTree) ((ParameterizedTypeTree) t).getType();
        if (t instanceof AnnotatedTypeTree) t = ((AnnotatedTypeTree) t).getUnderlyingType();
        if (t instanceof IdentifierTree) return sp.getStartPosition(cu, t);
        if (t instanceof MemberSelectTree) {
            String name = ((MemberSelectTree) t).getIdentifier().toString();
            long end = sp.getEndPosition(cu, t);
            if (end > 0) {
                int i = src.lastIndexOf(name, (int) end);
                if (i >= 0) return i;
            }
            return ((JCTree) t).pos;
        }
        return sp.getStartPosition(cu, t);
    }

    static Def addDef(String key, CompilationUnitTree cu, long namePos, String name, String qual, String kind, String container, String pkg) {
        Def d = defByKey.get(key);
        String loc = rel(cu) + ":" + line(cu, namePos);
        if (d != null) {
            if (!d.overloads.contains(loc)) d.overloads.add(loc);
            return d;
        }
        d = new Def();
        d.id = defs.size();
        d.path = rel(cu);
        d.line = line(cu, namePos);
        d.name = name;
        d.qualname = qual;
        d.kind = kind;
        d.container = container;
        d.pkg = pkg;
        d.overloads.add(loc);
        defs.add(d);
        defByKey.put(key, d);
        return d;
    }

    /** The definition key of a method or constructor element, or null when it is not ours. */
    static String keyOf(Element e) {
        if (!(e instanceof ExecutableElement)) return null;
        Element owner = e.getEnclosingElement();
        if (!(owner instanceof TypeElement)) return null;
        TypeElement t = (TypeElement) owner;
        if (e.getKind() == ElementKind.CONSTRUCTOR) return typeKey(t) + "#<init>";
        return typeKey(t) + "#" + e.getSimpleName();
    }

    static void addRef(Def d, CompilationUnitTree cu, long pos, String kind) {
        String p = rel(cu);
        long l = line(cu, pos), c = col(cu, pos);
        String k = String.format("%08d|%s|%08d|%08d|%s", d.id, p, l, c, kind);
        refs.put(k, "{\"def\": " + d.id + ", \"path\": " + esc(p) + ", \"line\": " + l + ", \"col\": " + c + ", \"kind\": " + esc(kind) + "}");
    }

    public static void main(String[] args) throws IOException {
        long t0 = System.currentTimeMillis();
        root = Paths.get(args[0]).toRealPath();
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.java"))
                    .filter(p -> {
                        for (Path part : root.relativize(p)) {
                            String n = part.toString();
                            if (n.startsWith(".") || n.equals("target") || n.equals("build") || n.equals("out")) return false;
                        }
                        return true;
                    })
                    .sorted().collect(Collectors.toList());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int[] errors = {0};
        DiagnosticListener<JavaFileObject> diag = d -> {
            if (d.getKind() == Diagnostic.Kind.ERROR) errors[0]++;
        };
        StandardJavaFileManager fm = compiler.getStandardFileManager(diag, null, StandardCharsets.UTF_8);
        List<String> opts = new ArrayList<>(List.of("-proc:none", "-XDshould-stop.ifError=FLOW",
                "-Xmaxerrs", "1000000", "-encoding", "UTF-8", "-implicit:none", "-nowarn"));
        String cp = System.getenv("TRUTH_JAVA_CLASSPATH");
        if (cp != null && !cp.isEmpty()) { opts.add("-classpath"); opts.add(cp); }
        JavacTask task = (JavacTask) compiler.getTask(null, fm, diag, opts, null, fm.getJavaFileObjectsFromPaths(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        trees = Trees.instance(task);
        sp = trees.getSourcePositions();
        Elements elements = task.getElements();
        Types types = task.getTypes();

        Map<CompilationUnitTree, String> text = new HashMap<>();
        for (CompilationUnitTree cu : units) text.put(cu, cu.getSourceFile().getCharContent(true).toString());

        // definitions
        List<TypeElement> repoTypes = new ArrayList<>();
        for (CompilationUnitTree cu : units) {
            String src = text.get(cu);
            String pkg = cu.getPackageName() == null ? "" : cu.getPackageName().toString();
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitClass(ClassTree ct, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e instanceof TypeElement && !ct.getSimpleName().toString().isEmpty()) {
                        TypeElement te = (TypeElement) e;
                        repoTypes.add(te);
                        if (te.getKind() == ElementKind.CLASS || te.getKind() == ElementKind.ENUM || te.getKind() == ElementKind.RECORD) {
                            long pos = classNamePos(cu, ct, src);
                            String chain = typeChain(te);
                            Def d = addDef(typeKey(te) + "#<init>", cu, pos, ct.getSimpleName().toString(), chain,
                                    "java_constructor", "", pkg);
                            d.overloads.clear();
                        }
                    }
                    return super.visitClass(ct, v);
                }

                @Override
                public Void visitMethod(MethodTree mt, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e instanceof ExecutableElement && e.getEnclosingElement() instanceof TypeElement) {
                        TypeElement owner = (TypeElement) e.getEnclosingElement();
                        String chain = typeChain(owner);
                        if (!chain.isEmpty() && !owner.getSimpleName().toString().isEmpty()) {
                            String name = e.getKind() == ElementKind.CONSTRUCTOR ? owner.getSimpleName().toString() : e.getSimpleName().toString();
                            long pos = methodNamePos(mt, src, name);
                            if (e.getKind() == ElementKind.CONSTRUCTOR) {
                                Def d = defByKey.get(typeKey(owner) + "#<init>");
                                if (d != null && sp.getStartPosition(cu, mt) >= 0 && src.startsWith(name, (int) pos)) {
                                    String loc = rel(cu) + ":" + line(cu, pos);
                                    if (!d.overloads.contains(loc)) d.overloads.add(loc);
                                }
                            } else {
                                boolean stat = e.getModifiers().contains(Modifier.STATIC);
                                boolean iface = owner.getKind().isInterface();
                                String kind = stat ? "java_static_method" : iface ? "java_interface_method" : "java_method";
                                addDef(typeKey(owner) + "#" + name, cu, pos, name, chain + "." + name, kind, chain,
                                        cu.getPackageName() == null ? "" : cu.getPackageName().toString());
                            }
                        }
                    }
                    return super.visitMethod(mt, v);
                }
            }.scan(cu, null);
        }

        // implementations of interface methods, among the checkout's classes
        for (TypeElement iface : repoTypes) {
            if (!iface.getKind().isInterface()) continue;
            for (Element m : iface.getEnclosedElements()) {
                if (m.getKind() != ElementKind.METHOD) continue;
                Def d = defByKey.get(typeKey(iface) + "#" + m.getSimpleName());
                if (d == null) continue;
                TreeSet<String> impls = new TreeSet<>();
                for (TypeElement cls : repoTypes) {
                    if (cls.getKind().isInterface()) continue;
                    if (!types.isSubtype(types.erasure(cls.asType()), types.erasure(iface.asType()))) continue;
                    for (Element cm : cls.getEnclosedElements()) {
                        if (cm.getKind() == ElementKind.METHOD && elements.overrides((ExecutableElement) cm, (ExecutableElement) m, cls)) {
                            Def cd = defByKey.get(keyOf(cm));
                            if (cd != null) impls.add(cd.path + ":" + cd.line);
                        }
                    }
                }
                for (String s : impls) if (!d.implementations.contains(s)) d.implementations.add(s);
            }
        }

        // calls and other references
        long[] st = new long[8]; // calls, inRepo, nondef, outside, unresolved, anonymous
        List<String> samples = new ArrayList<>();
        for (CompilationUnitTree cu : units) {
            String src = text.get(cu);
            new TreePathScanner<Void, Void>() {
                void call(ExpressionTree callee, Element e) {
                    st[0]++;
                    long pos = calleeNamePos(cu, callee, src);
                    if (e == null || e.asType() == null || e.asType().getKind() == TypeKind.ERROR) {
                        st[4]++;
                        if (samples.size() < 40) {
                            Matcher m = Pattern.compile("\\w+").matcher(src);
                            String nm = m.find((int) Math.max(pos, 0)) ? m.group() : "?";
                            samples.add(rel(cu) + ":" + line(cu, pos) + ":" + col(cu, pos) + " " + nm);
                        }
                        return;
                    }
                    String key = keyOf(e);
                    Def d = key == null ? null : defByKey.get(key);
                    if (d != null) {
                        st[1]++;
                        addRef(d, cu, pos, "call");
                    } else if (trees.getPath(e) != null) {
                        st[2]++;
                    } else {
                        st[3]++;
                    }
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree mi, Void v) {
                    call(mi.getMethodSelect(), trees.getElement(getCurrentPath()));
                    return super.visitMethodInvocation(mi, v);
                }

                @Override
                public Void visitNewClass(NewClassTree nc, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    if (nc.getClassBody() != null) {
                        // anonymous class: its constructor calls the superclass's
                        st[5]++;
                        if (e != null && e.getEnclosingElement() instanceof TypeElement) {
                            TypeElement anon = (TypeElement) e.getEnclosingElement();
                            TypeMirror sup = anon.getSuperclass();
                            Element se = types.asElement(sup);
                            if (se instanceof TypeElement && !((TypeElement) se).getQualifiedName().contentEquals("java.lang.Object")) {
                                Def d = defByKey.get(typeKey((TypeElement) se) + "#<init>");
                                if (d != null) {
                                    st[0]++;
                                    st[1]++;
                                    addRef(d, cu, calleeNamePos(cu, nc.getIdentifier(), src), "call");
                                    return super.visitNewClass(nc, v);
                                }
                            }
                        }
                        return super.visitNewClass(nc, v);
                    }
                    call(nc.getIdentifier(), e);
                    return super.visitNewClass(nc, v);
                }

                @Override
                public Void visitMemberReference(MemberReferenceTree mr, Void v) {
                    Element e = trees.getElement(getCurrentPath());
                    String key = keyOf(e);
                    Def d = key == null ? null : defByKey.get(key);
                    if (d != null) {
                        long end = sp.getEndPosition(cu, mr);
                        String name = mr.getName().toString();
                        int i = end > 0 ? src.lastIndexOf(name, (int) end) : -1;
                        addRef(d, cu, i >= 0 ? i : sp.getStartPosition(cu, mr), "method_reference");
                    }
                    return super.visitMemberReference(mr, v);
                }

                @Override
                public Void visitImport(ImportTree it, Void v) {
                    if (it.isStatic() && it.getQualifiedIdentifier() instanceof MemberSelectTree) {
                        MemberSelectTree ms = (MemberSelectTree) it.getQualifiedIdentifier();
                        Element owner = trees.getElement(new TreePath(new TreePath(getCurrentPath(), it), ms.getExpression()));
                        if (owner instanceof TypeElement) {
                            Def d = defByKey.get(typeKey((TypeElement) owner) + "#" + ms.getIdentifier());
                            if (d != null) addRef(d, cu, calleeNamePos(cu, ms, src), "import");
                        }
                    }
                    return super.visitImport(it, v);
                }
            }.scan(cu, null);
        }

        StringBuilder out = new StringBuilder();
        out.append("{\"tool\": \"javac (JavacTask/Trees)\", \"tool_version\": ").append(esc(System.getProperty("java.version"))).append(",\n");
        out.append("\"stats\": {\"files\": ").append(files.size())
                .append(", \"call_exprs\": ").append(st[0])
                .append(", \"calls_resolved_in_repo\": ").append(st[1])
                .append(", \"calls_resolved_in_repo_nondef\": ").append(st[2])
                .append(", \"calls_resolved_outside\": ").append(st[3])
                .append(", \"calls_unresolved\": ").append(st[4])
                .append(", \"anonymous_class_creations\": ").append(st[5])
                .append(", \"javac_errors\": ").append(errors[0])
                .append(", \"seconds\": ").append((System.currentTimeMillis() - t0) / 100 / 10.0).append("},\n");
        out.append("\"unresolved_samples\": [").append(samples.stream().map(TruthJava::esc).collect(Collectors.joining(", "))).append("],\n");
        out.append("\"defs\": [\n");
        List<String> dl = new ArrayList<>();
        for (Def d : defs) {
            Collections.sort(d.overloads);
            dl.add("{\"id\": " + d.id + ", \"path\": " + esc(d.path) + ", \"line\": " + d.line + ", \"name\": " + esc(d.name)
                    + ", \"qualname\": " + esc(d.qualname) + ", \"kind\": " + esc(d.kind) + ", \"container\": " + esc(d.container)
                    + ", \"package\": " + esc(d.pkg)
                    + ", \"overloads\": [" + (d.overloads.size() > 1 ? d.overloads.stream().map(TruthJava::esc).collect(Collectors.joining(", ")) : "") + "]"
                    + ", \"implementations\": [" + d.implementations.stream().sorted().map(TruthJava::esc).collect(Collectors.joining(", ")) + "]}");
        }
        out.append(String.join(",\n", dl)).append("\n],\n\"refs\": [\n");
        out.append(String.join(",\n", refs.values())).append("\n]}\n");
        System.out.print(out);
    }
}

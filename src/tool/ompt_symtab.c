/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A program that defines ompt_start_tool but was linked without -rdynamic
 * (the usual `gcc -fopenmp`: the system libgomp neither defines nor uses
 * the name, so the linker does not export it) keeps the function out of
 * its dynamic symbol table, where dlsym looks.  Its static symbol table
 * (.symtab, present unless the program was stripped) still has it: read
 * /proc/self/exe and relocate the address by the program's load address.
 * The address is used only if it lies in an executable segment of the
 * program as loaded.
 */
#include "ompt_internal.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct program_image {
    uintptr_t base;
    const ElfW(Phdr) *phdr;
    ElfW(Half) phnum;
    bool seen;
};

/* dl_iterate_phdr visits the program first. */
static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct program_image *p = arg;
    p->base = info->dlpi_addr;
    p->phdr = info->dlpi_phdr;
    p->phnum = info->dlpi_phnum;
    p->seen = true;
    return 1;
}

static bool in_code(const struct program_image *p, uintptr_t addr)
{
    for (ElfW(Half) i = 0; i < p->phnum; i++) {
        const ElfW(Phdr) *ph = &p->phdr[i];
        uintptr_t lo = p->base + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && addr >= lo && addr - lo < ph->p_memsz)
            return true;
    }
    return false;
}

/* The value of function `name` in the ELF image `img` of `size` bytes, or
 * 0.  Every offset is checked against the size: the file is not trusted. */
static uintptr_t find_function(const unsigned char *img, size_t size, const char *name)
{
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)img;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
        eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff > size ||
        (size - eh->e_shoff) / sizeof(ElfW(Shdr)) < eh->e_shnum)
        return 0;
    const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(img + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
            sh[i].sh_entsize != sizeof(ElfW(Sym)))
            continue;
        const ElfW(Shdr) *strs = &sh[sh[i].sh_link];
        if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset ||
            strs->sh_offset > size || strs->sh_size > size - strs->sh_offset)
            continue;
        const ElfW(Sym) *syms = (const ElfW(Sym) *)(img + sh[i].sh_offset);
        const char *names = (const char *)img + strs->sh_offset;
        size_t nsyms = sh[i].sh_size / sizeof *syms, len = strlen(name);
        for (size_t k = 0; k < nsyms; k++) {
            const ElfW(Sym) *s = &syms[k];
            unsigned bind = ELF64_ST_BIND(s->st_info);
            if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
                (bind != STB_GLOBAL && bind != STB_WEAK) || s->st_name >= strs->sh_size ||
                strs->sh_size - s->st_name <= len)
                continue;
            if (memcmp(names + s->st_name, name, len + 1) == 0)
                return (uintptr_t)s->st_value;
        }
    }
    return 0;
}

void *xomp_ompt_executable_symbol(const char *name)
{
    struct program_image prog = {0};
    dl_iterate_phdr(first_object, &prog);
    if (!prog.seen)
        return NULL;
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *img = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size > 0)
        img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (img == MAP_FAILED)
        return NULL;
    uintptr_t value = find_function(img, (size_t)st.st_size, name);
    munmap(img, (size_t)st.st_size);
    if (!value)
        return NULL;
    uintptr_t addr = prog.base + value;
    return in_code(&prog, addr) ? (void *)addr : NULL;
}

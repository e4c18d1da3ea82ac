import { expect } from 'chai';
import { Signature } from 'ethers';
import { network } from 'hardhat';
import { BASE_POOL_MANAGER } from '../../ignition/songmint-hook.ts';
import { claimWholeAllocation, deploySongmint, mintAndLaunch, TOTAL_SUPPLY } from './fixtures/songmint.ts';

const { ethers, networkHelpers } = await network.create('base');

async function launched() {
  const s = await deploySongmint(ethers);
  return { ...s, ...(await mintAndLaunch(s, 'token')) };
}

const PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
};

describe('SongToken', function () {
  it('has a fixed supply: the pool share at launch, the allocation as it vests, no owner, nothing more', async function () {
    const s = await networkHelpers.loadFixture(launched);
    const poolSupply = await s.token.balanceOf(BASE_POOL_MANAGER);
    expect(await s.token.totalSupply()).to.equal(poolSupply);
    const [, total] = await s.vault.allocationOf(s.songId);
    expect(poolSupply + total).to.equal(TOTAL_SUPPLY);
    // Only the vault that deployed the clone mints the rest, and it does so through claimAllocation.
    await expect(s.token.connect(s.creator).mintAllocation(s.creator.address, 1n))
      .to.be.revertedWithCustomError(s.token, 'NotDeployer')
      .withArgs(s.creator.address);
    await expect(s.tokenImplementation.mintAllocation(s.creator.address, 1n)).to.be.revertedWithCustomError(s.token, 'NotDeployer');
    expect(await claimWholeAllocation(s, networkHelpers.time, s.songId)).to.equal(total);
    expect(await s.token.totalSupply()).to.equal(TOTAL_SUPPLY);
    expect(await s.token.balanceOf(s.creator.address)).to.equal(total);
    const names = s.token.interface.fragments.filter((f) => f.type === 'function').map((f) => ('name' in f ? String(f.name) : ''));
    expect(names).to.not.include('mint');
    expect(names).to.not.include('owner');
  });

  it('cannot be initialized again, and the implementation cannot be initialized at all', async function () {
    const s = await networkHelpers.loadFixture(launched);
    await expect(s.token.connect(s.stranger).initialize(s.stranger.address, 1n)).to.be.revertedWithCustomError(
      s.token,
      'AlreadyInitialized',
    );
    await expect(s.tokenImplementation.connect(s.stranger).initialize(s.stranger.address, 1n)).to.be.revertedWithCustomError(
      s.token,
      'ImplementationLocked',
    );
    expect(await s.tokenImplementation.songId()).to.equal(0n);
    expect(await s.tokenImplementation.totalSupply()).to.equal(0n);
  });

  it("ERC-7572: its contractURI is its song's metadata URI (empty on the implementation)", async function () {
    const s = await networkHelpers.loadFixture(launched);
    expect(await s.token.songNFT()).to.equal(await s.nft.getAddress());
    expect(await s.token.contractURI()).to.equal(await s.nft.tokenURI(s.songId));
    expect(await s.token.contractURI()).to.equal('ipfs://song-token');
    expect(await s.tokenImplementation.contractURI()).to.equal('');
  });

  it('rejects a pool share above the supply', async function () {
    const s = await networkHelpers.loadFixture(launched);
    // A bare clone of the implementation, made the way the vault makes one, never initialized.
    const clone = await ethers.deployContract('SongTokenCloneProbe', [await s.tokenImplementation.getAddress(), 5n]);
    const token = await ethers.getContractAt('SongToken', await clone.instance());
    expect(await token.name()).to.equal('Songmint #5');
    for (const bad of [TOTAL_SUPPLY + 1n, 0n]) {
      await expect(token.initialize(BASE_POOL_MANAGER, bad)).to.be.revertedWithCustomError(token, 'PoolShareTooLarge').withArgs(bad);
    }
    // Its deployer (the probe, not a vault) is the only account that could mint the rest, and never
    // past the supply.
    await expect(token.mintAllocation(s.stranger.address, 1n)).to.be.revertedWithCustomError(token, 'NotDeployer');
    await (await token.initialize(s.stranger.address, TOTAL_SUPPLY - 10n)).wait();
    await expect(clone.mintAllocation(s.stranger.address, 11n)).to.be.revertedWithCustomError(token, 'SupplyExceeded').withArgs(11n);
    await (await clone.mintAllocation(s.stranger.address, 10n)).wait();
    expect(await token.balanceOf(s.stranger.address)).to.equal(TOTAL_SUPPLY);
    await expect(clone.mintAllocation(s.stranger.address, 1n)).to.be.revertedWithCustomError(token, 'SupplyExceeded').withArgs(1n);
  });

  describe('EIP-2612 permit', function () {
    async function signPermit(s: Awaited<ReturnType<typeof launched>>, value: bigint, deadline: bigint, nonce?: bigint) {
      const domain = {
        name: await s.token.name(),
        version: '1',
        chainId: 8453n,
        verifyingContract: await s.token.getAddress(),
      };
      const message = {
        owner: s.creator.address,
        spender: s.trader.address,
        value,
        nonce: nonce ?? (await s.token.nonces(s.creator.address)),
        deadline,
      };
      return Signature.from(await s.creator.signTypedData(domain, PERMIT_TYPES, message));
    }

    it('uses the per-song name in its domain, as ERC-5267 reports', async function () {
      const s = await networkHelpers.loadFixture(launched);
      const [fields, name, version, chainId, verifyingContract] = await s.token.eip712Domain();
      expect(fields).to.equal('0x0f');
      expect(name).to.equal(`Songmint #${s.songId}`);
      expect(version).to.equal('1');
      expect(chainId).to.equal(8453n);
      expect(verifyingContract).to.equal(await s.token.getAddress());
      expect(await s.token.DOMAIN_SEPARATOR()).to.equal(ethers.TypedDataEncoder.hashDomain({ name, version, chainId, verifyingContract }));
    });

    it('names its ERC-5267 outputs as the ERC does: a client that reads the domain by field name signs a working permit', async function () {
      const s = await networkHelpers.loadFixture(launched);
      const outputs = s.token.interface.getFunction('eip712Domain').outputs.map((output) => output.name);
      expect(outputs).to.deep.equal(['fields', 'name', 'version', 'chainId', 'verifyingContract', 'salt', 'extensions']);
      // What ethers-based wallets and libraries do: read the fields by name, then sign over them.
      const read = await s.token.eip712Domain();
      const domain = { name: read.name, version: read.version, chainId: read.chainId, verifyingContract: read.verifyingContract };
      expect(domain.name).to.equal(`Songmint #${s.songId}`);
      const deadline = BigInt(await networkHelpers.time.latest()) + 3600n;
      const message = { owner: s.creator.address, spender: s.trader.address, value: 77n, nonce: 0n, deadline };
      const sig = Signature.from(await s.creator.signTypedData(domain, PERMIT_TYPES, message));
      await (await s.token.connect(s.stranger).permit(s.creator.address, s.trader.address, 77n, deadline, sig.v, sig.r, sig.s)).wait();
      expect(await s.token.allowance(s.creator.address, s.trader.address)).to.equal(77n);
    });

    it('sets an allowance from a wallet signature, once', async function () {
      const s = await networkHelpers.loadFixture(launched);
      const deadline = BigInt(await networkHelpers.time.latest()) + 3600n;
      const sig = await signPermit(s, 1234n, deadline);
      const permit = () => s.token.connect(s.stranger).permit(s.creator.address, s.trader.address, 1234n, deadline, sig.v, sig.r, sig.s);
      await (await permit()).wait();
      expect(await s.token.allowance(s.creator.address, s.trader.address)).to.equal(1234n);
      expect(await s.token.nonces(s.creator.address)).to.equal(1n);
      await expect(permit()).to.be.revertedWithCustomError(s.token, 'ERC2612InvalidSigner');
    });

    it('rejects an expired permit and one signed by someone else', async function () {
      const s = await networkHelpers.loadFixture(launched);
      const past = BigInt(await networkHelpers.time.latest()) - 1n;
      const expired = await signPermit(s, 1n, past);
      await expect(s.token.permit(s.creator.address, s.trader.address, 1n, past, expired.v, expired.r, expired.s))
        .to.be.revertedWithCustomError(s.token, 'ERC2612ExpiredSignature')
        .withArgs(past);
      const deadline = past + 3600n;
      const good = await signPermit(s, 1n, deadline);
      await expect(
        s.token.permit(s.stranger.address, s.trader.address, 1n, deadline, good.v, good.r, good.s),
      ).to.be.revertedWithCustomError(s.token, 'ERC2612InvalidSigner');
    });
  });
});
